-- Sends a visitor whom the origin failed right after their admission back to the front of the
-- line, instead of losing their turn: their session ends, their running slot is freed, and they wait
-- ahead of everyone waiting (front.lua), in the order they were first admitted. The admission rate
-- and the caps still apply when they are admitted again (admit.lua, room_admit.lua).
-- In the line of a queue that is off, whose keys live for a while only, the keys this writes live as
-- long as the longest-lived of running and state, as in release.lua.
-- They stay an active user of the room while they still run in another of its items (sessions.lua
-- users_leave), as after a release.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's users), 7 budget
--       (the room's; unused here), 8 admitted (when the line let in those running: the visitor's
--       entry goes with the session; the line writes a new one when it admits them again),
--       9 reentries (QueueKeys reentries), 10.. the running keys of the room's other items the
--       visitor may hold (the items of their pass)
-- ARGV: 1 visitor, 2 now (ms), 3 when the pass says the line admitted the visitor (ms), 4 most times
--       one visitor may go back (reentry-max), 5 how long the counts are kept (ms)
-- Reply: 1 when the visitor went back to the front now; 2 when they are waiting already (a parallel
--   request of theirs went back first: send them to the line too); 0 when they are not running, or
--   running on a later admission than the pass's (this one went back already); -1 when they went
--   back max times already (nothing changes, the origin's answer goes to the visitor as it is)
-- The reentries hash counts each visitor's times (field visitor), and keeps the admission each went
-- back from (field 'at|' visitor), so an admission goes back once: a pass from it, copied or sent
-- again, cannot end the session a later admission started.
-- Safe to repeat at any later moment: a repeat finds the visitor waiting (2) or, once admitted
-- again, running on a later admission than the one it names (0), and changes nothing.

--@include sessions.lua
--@include front.lua
--@include clock.lua

local visitor, now, admitted = ARGV[1], call_now(ARGV[2]), tonumber(ARGV[3])
if not redis.call('ZSCORE', KEYS[2], visitor) or admitted <= 0 then
  if redis.call('ZSCORE', KEYS[1], visitor) then
    return 2
  end
  return 0
end
local last = tonumber(redis.call('HGET', KEYS[9], 'at|' .. visitor) or 0)
if admitted <= last then
  return 0
end
if tonumber(redis.call('HGET', KEYS[9], visitor) or 0) >= tonumber(ARGV[4]) then
  return -1
end
-- PTTL is -1 for a key without a time to live (the queue is on), -2 for a missing one.
local running_ttl, state_ttl = redis.call('PTTL', KEYS[2]), redis.call('PTTL', KEYS[5])
local ttl = math.max(running_ttl, state_ttl)
if running_ttl == -1 or state_ttl == -1 then
  ttl = -1
end
redis.call('ZREM', KEYS[2], visitor)
redis.call('ZREM', KEYS[8], visitor)
users_leave(KEYS[6], visitor, {unpack(KEYS, 10)})
redis.call('ZADD', KEYS[1], front_score(admitted), visitor)
redis.call('ZADD', KEYS[4], now, visitor)
redis.call('HINCRBY', KEYS[9], visitor, 1)
redis.call('HSET', KEYS[9], 'at|' .. visitor, ARGV[3])
redis.call('PEXPIRE', KEYS[9], tonumber(ARGV[5]))
redis.call('HINCRBY', KEYS[5], 'reentered', 1)
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[4], ttl)
  redis.call('PEXPIRE', KEYS[5], ttl)
end
return 1
