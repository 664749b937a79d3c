-- Reference for join.lua: the commands join.lua runs for a first-come newcomer behind others (its
-- usual call), in the same order, with no Lua between them beyond passing values on, so what the
-- join's own logic and helpers cost can be told apart from what its commands cost. Beyond the four
-- of join_floor.lua: whether the line is idle (PTTL of state, idle_keys.lua), the two look-ups a
-- re-sent call needs (running, finished) and the running count the cap's wait estimate starts
-- from (cap_wait.lua).
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state (shaped like join.lua's first five)
-- ARGV: 1 visitor, 2 now (ms), 3-9 not read (shaped like join.lua's)
-- Reply: join.lua's reply for a newcomer at the back, the cap holding nobody back
local idle = redis.call('PTTL', KEYS[5]) ~= -1
redis.call('ZSCORE', KEYS[2], ARGV[1])
redis.call('ZSCORE', KEYS[3], ARGV[1])
local length = redis.call('ZCARD', KEYS[1])
local seq = redis.call('HINCRBY', KEYS[5], 'seq', 1)
redis.call('ZADD', KEYS[1], 'NX', seq, ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
redis.call('ZCARD', KEYS[2])
local flag = 0
if idle then
  flag = 1
end
return {1, length + 1, length + 1, 0, 1, -1, flag, -1, 0, 0}
