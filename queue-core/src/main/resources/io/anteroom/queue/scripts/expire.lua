-- Ends sessions idle for their idle limit or longer and trims old finished entries (at most a
-- thousand a call, trim.lua; the rest on later calls). Runs for
-- active queues only, so it also removes the times to live that the writes while the queue was off
-- (idle_keys.lua, register.lua), or turning it off (settle.lua), put on its keys: a queue's keys
-- without one belong to a queue that is on.
-- In a room whose scope is 'room' (session-scope: room), a session idle in its item lives on while
-- the visitor is active anywhere in the room (sessions.lua session_alive): its activity moves up to
-- the visitor's last in the room instead of ending. The room's users are not this script's: each
-- leaves by the room's own idle limit (room_admit.lua), which no item's outlasts.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's users), 7 budget
--       (the room's; unused here), 8 admitted (when the line let in those running: an ended
--       session's entry goes with it)
-- ARGV: 1 now (ms), 2 idle limit (ms): the session duration and one session check, 3 finished
--       retention (ms), 4 limit per call, 5 time to live (ms) to give the six keys instead of
--       removing it, 0 for none: a virtual line of a queue in shadow mode (QueueKeys shadow), which
--       must go away by itself once the mode is off, 6 (optional) session scope, 'item' (default)
--       or 'room'
-- Reply: {expired, trimmed, waiting, running, finished, admitted}: the set sizes after the call and
--   the lifetime count of admissions, for the worker's gauges (one call per queue per tick already)
-- Safe to repeat at any later moment: a second call finds nothing more to expire; one with an
-- older now ends only sessions idle since before it, and trims only entries older still. One sent
-- before the queue was turned off (its now no later than settle.lua's settled-at) leaves the times
-- to live that turning it off gave the keys.

--@include trim.lua
--@include clock.lua

local now, session, retention = call_now(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])

local candidates = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - session, 'LIMIT', 0,
  tonumber(ARGV[4]))
local idle, ended, kept = {}, {}, {}
for _, visitor in ipairs(candidates) do
  local last = ARGV[6] == 'room' and tonumber(redis.call('ZSCORE', KEYS[6], visitor))
  if last and last >= now - session then
    kept[#kept + 1] = last
    kept[#kept + 1] = visitor
  else
    idle[#idle + 1] = visitor
    ended[#ended + 1] = now
    ended[#ended + 1] = visitor
  end
end
if #kept > 0 then
  redis.call('ZADD', KEYS[2], 'XX', 'GT', unpack(kept))
end
if #idle > 0 then
  redis.call('ZREM', KEYS[2], unpack(idle))
  redis.call('ZREM', KEYS[8], unpack(idle))
  redis.call('ZADD', KEYS[3], unpack(ended))
  redis.call('HINCRBY', KEYS[5], 'expired', #idle)
end
local keep = tonumber(ARGV[5])
local settled = tonumber(redis.call('HGET', KEYS[5], 'settled-at') or 0)
if keep > 0 or now > settled then
  if settled > 0 and keep == 0 then
    redis.call('HDEL', KEYS[5], 'settled-at')
  end
  for _, i in ipairs({1, 2, 3, 4, 5, 8}) do
    if keep > 0 then
      redis.call('PEXPIRE', KEYS[i], keep)
    else
      redis.call('PERSIST', KEYS[i])
    end
  end
end
local trimmed = trim_below(KEYS[3], '(' .. (now - retention))
return {#idle, trimmed, redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2]),
  redis.call('ZCARD', KEYS[3]), tonumber(redis.call('HGET', KEYS[5], 'admitted') or 0)}
