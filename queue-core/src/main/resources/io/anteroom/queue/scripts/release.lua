-- Ends a visitor's session early, or takes a waiting visitor out of line; either way the visitor
-- is finished.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state
-- ARGV: 1 visitor, 2 now (ms)
-- Reply: 1 when the visitor was running or waiting, 0 otherwise
-- Safe to repeat: a second call finds the visitor already finished.

local visitor = ARGV[1]
local removed = redis.call('ZREM', KEYS[2], visitor) + redis.call('ZREM', KEYS[1], visitor)
if removed == 0 then
  return 0
end
redis.call('ZREM', KEYS[4], visitor)
redis.call('ZADD', KEYS[3], tonumber(ARGV[2]), visitor)
redis.call('HINCRBY', KEYS[5], 'released', 1)
return 1
