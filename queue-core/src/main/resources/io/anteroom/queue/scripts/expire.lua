-- Ends sessions idle for their idle limit or longer and trims old finished entries. Runs for
-- active queues only, so it also removes the times to live that the writes while the queue was off
-- (idle_keys.lua, register.lua), or turning it off (settle.lua), put on its keys: a queue's keys
-- without one belong to a queue that is on.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget (the room's; unused here)
-- ARGV: 1 now (ms), 2 idle limit (ms): the session duration and one session check, 3 finished
--       retention (ms), 4 limit per call, 5 (optional) time to live (ms) to give the five keys
--       instead of removing it: a virtual line of a queue in shadow mode (QueueKeys shadow), which
--       must go away by itself once the mode is off
-- Reply: {expired, trimmed, waiting, running, finished, admitted}: the set sizes after the call and
--   the lifetime count of admissions, for the worker's gauges (one call per queue per tick already)
-- Safe to repeat at any later moment: a second call finds nothing more to expire; one with an
-- older now ends only sessions idle since before it, and trims only entries older still.

--@include sessions.lua

local now, session, retention = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])

local idle = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - session, 'LIMIT', 0, tonumber(ARGV[4]))
if #idle > 0 then
  local ended = {}
  for _, visitor in ipairs(idle) do
    ended[#ended + 1] = now
    ended[#ended + 1] = visitor
  end
  redis.call('ZREM', KEYS[2], unpack(idle))
  sessions_remove(KEYS[6], session_item(KEYS[2]), idle)
  redis.call('ZADD', KEYS[3], unpack(ended))
  redis.call('HINCRBY', KEYS[5], 'expired', #idle)
end
local keep = tonumber(ARGV[5] or 0)
for i = 1, 5 do
  if keep > 0 then
    redis.call('PEXPIRE', KEYS[i], keep)
  else
    redis.call('PERSIST', KEYS[i])
  end
end
local trimmed = redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', '(' .. (now - retention))
return {#idle, trimmed, redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2]),
  redis.call('ZCARD', KEYS[3]), tonumber(redis.call('HGET', KEYS[5], 'admitted') or 0)}
