-- Ends a visitor's session early, or takes a waiting visitor out of line; either way the visitor
-- is finished. In the line of a queue that is off, whose keys live for a while only, the keys this
-- creates live as long as the longest-lived of running and state.
-- A visitor whose session ends stays an active user of the room (sessions.lua users_leave) while
-- they still run in another of its items; the caller names those the visitor may hold.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's users), 7 budget
--       (the room's; unused here), 8 admitted (when the line let in those running: the visitor's
--       entry goes with the session), 9.. the running keys of the room's other items the visitor
--       may hold (the items of their pass, or the room's queues an operator's call knows)
-- ARGV: 1 visitor, 2 now (ms)
-- Reply: 1 when the visitor was running or waiting, 0 otherwise
-- Safe to repeat until the visitor comes back: a second call finds them finished and changes
-- nothing, and replies 0, as for a visitor who was not there: the origin's release is then not
-- counted in the room's events, and an operator's is answered 404 although it took effect. A call re-sent after the visitor joined again (enqueue.lua, with their ticket) would end
-- that new place too. Accepted: Lettuce re-sends a call only within about two command timeouts
-- (default 500ms), and the visitor would have to be released, hear of it and join again through another
-- connection within it; the cost is the new place (their next request joins at the back), never
-- a place twice. Telling the two places apart needs when the new one began, from another
-- gateway's clock, and clocks a moment apart would then refuse a real release.

--@include sessions.lua
--@include clock.lua

local visitor = ARGV[1]
-- PTTL is -1 for a key without a time to live (the queue is on), -2 for a missing one.
local running_ttl, state_ttl = redis.call('PTTL', KEYS[2]), redis.call('PTTL', KEYS[5])
local ttl = math.max(running_ttl, state_ttl)
if running_ttl == -1 or state_ttl == -1 then
  ttl = -1
end
local ran = redis.call('ZREM', KEYS[2], visitor)
if ran == 1 then
  redis.call('ZREM', KEYS[8], visitor)
  users_leave(KEYS[6], visitor, {unpack(KEYS, 9)})
end
if ran + redis.call('ZREM', KEYS[1], visitor) == 0 then
  return 0
end
redis.call('ZREM', KEYS[4], visitor)
redis.call('ZADD', KEYS[3], call_now(ARGV[2]), visitor)
redis.call('HINCRBY', KEYS[5], 'released', 1)
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[3], ttl)
  redis.call('PEXPIRE', KEYS[5], ttl)
end
return 1
