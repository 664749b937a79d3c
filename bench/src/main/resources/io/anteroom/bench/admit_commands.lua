-- Reference for admit.lua: the commands admit.lua runs for a call that admits one batch, in the
-- same order, with no Lua between them beyond what moving the members needs, so what the model's
-- own logic and helpers cost can be told apart from what its commands cost. Beyond the three of
-- admit_floor.lua: the bucket (read, write), the running count (the cap), the recovery's hold, the
-- head taken by rank (ZRANGE, ZREMRANGEBYRANK), the line's admissions (admitted), the room's users
-- (each visitor once, GT, for room-wide limits), the stale last-seen entries (ZRANGEBYSCORE: none are stale here, as none are
-- in admit.lua's admitting calls; the trimming, with the look-up in the line of those trimmed, runs
-- later in calls of its own), the admitted counter, the room's started sessions (read, write), the
-- line's length and the measured rate (read, write).
-- KEYS: 1 line, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget, 8 admitted
-- ARGV: 1 now (ms; the caller moves it on a second a call, as the model's clock moves, so new
--       members go to the end of running as they do there), 2 batch, 3 oldest last-seen time still
--       waiting (ms)
-- Reply: how many left the line
local state, now_text = KEYS[5], ARGV[1]
redis.call('HMGET', state, 'tokens', 'refill')
redis.call('ZCARD', KEYS[2])
redis.call('HGET', state, 'hold-until')
local members = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if #members == 0 then
  return 0
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, #members - 1)
local seen = redis.call('ZMSCORE', KEYS[4], unpack(members))
local oldest = tonumber(ARGV[3])
local enter, leave = {}, {}
for i = 1, #members do
  local last = tonumber(seen[i])
  if last and last >= oldest then
    enter[#enter + 1] = now_text
    enter[#enter + 1] = members[i]
  else
    leave[#leave + 1] = now_text
    leave[#leave + 1] = members[i]
  end
end
if #enter > 0 then
  redis.call('ZADD', KEYS[2], unpack(enter))
  redis.call('ZADD', KEYS[8], unpack(enter))
  redis.call('ZADD', KEYS[6], 'GT', unpack(enter))
end
if #leave > 0 then
  redis.call('ZADD', KEYS[3], unpack(leave))
end
redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. ARGV[3], 'LIMIT', 0, tonumber(ARGV[2]))
redis.call('HINCRBY', state, 'admitted', #enter / 2)
redis.call('HSET', state, 'tokens', '0.000000', 'refill', now_text)
redis.call('HMGET', KEYS[7], 'started-sum', 'started-weight', 'started-at')
redis.call('HSET', KEYS[7], 'started-sum', '1.000000', 'started-weight', '1.000', 'started-at',
  now_text)
redis.call('ZCARD', KEYS[1])
redis.call('HMGET', state, 'rate-sum', 'rate-weight', 'rate-at', 'rate-open')
redis.call('HSET', state, 'rate-sum', '1.000000', 'rate-weight', '1.000', 'rate-at', now_text,
  'rate-open', '1')
return #members
