-- Reference for join.lua: the four commands a newcomer's join cannot do without, and nothing else,
-- so the cost of the join's own logic can be told apart from the cost of the commands it needs:
-- the line's length (position, empty-line admission), the sequence number, the place, the
-- last-seen time that abandonment is judged by.
-- KEYS: 1 line, 2-3 not touched, 4 seen, 5 state (shaped like join.lua's)
-- ARGV: 1 visitor, 2 now (ms), 3-8 not read (shaped like join.lua's)
-- Reply: join.lua's reply for a newcomer at the back
local length = redis.call('ZCARD', KEYS[1])
local seq = redis.call('HINCRBY', KEYS[5], 'seq', 1)
redis.call('ZADD', KEYS[1], 'NX', seq, ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
return {1, length + 1, length + 1, 0, 1, -1}
