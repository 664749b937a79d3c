-- Records activity of an admitted visitor, keeping the session alive; takes back the session of a
-- pass holder that the store lost when it came back empty.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's users), 7 budget
--       (the room's; unused here), 8 admitted (when the line let in those running)
-- ARGV: 1 visitor, 2 now (ms), 3 when the pass last had the session confirmed (ms), 0 for unknown,
--       4 the item's idle limit of a session (ms), 5 session scope ('item' or 'room')
-- Reply: 1 when the visitor is running, 0 otherwise
-- A session idle past its limit (sessions.lua session_alive) has ended, whether or not the worker
-- has ended it yet (it never does for a queue that is off): it is ended here as expire.lua would
-- (finished, counted expired, its admission by the line gone with it), never renewed, so a pass
-- kept past its end cannot bring it back nor the visitor back into the room's users.
-- In a line a recovery began (reborn.lua wrote hold-until), a visitor neither running nor finished
-- whose pass was confirmed a whole second before the line's incarnation began (rejoin.lua: since)
-- had a session the store lost: it runs again from now, counted by the cap and the room as before.
-- Elsewhere (a line whose keys were deleted while its queue was off, idle_keys.lua, forget.lua)
-- nothing is taken back and nothing written: a pass of a queue that is off is registered again by
-- the gateway (register.lua), with the idle time to live. A session
-- that ended is in finished for finished-retention, which outlasts a pass left unconfirmed. One in
-- line is known to the line too (the origin sent them back to the front, reenter.lua): a copy of
-- their pass never takes a session back beside their place.
-- Safe to repeat at any later moment: it only moves the activity time of a running visitor forward
-- (XX GT). One whose session ended since stays finished; one admitted again keeps the later time.
-- The visitor's activity in the room's users moves with it (GT). A session taken back is running,
-- so a repeat finds it so.

--@include sessions.lua
--@include rejoin.lua
--@include clock.lua

local visitor, now = ARGV[1], call_now(ARGV[2])
local running = redis.call('ZSCORE', KEYS[2], visitor)
if running then
  if not session_alive(running, KEYS[6], visitor, now, tonumber(ARGV[4]), ARGV[5]) then
    redis.call('ZREM', KEYS[2], visitor)
    redis.call('ZREM', KEYS[8], visitor)
    redis.call('ZADD', KEYS[3], now, visitor)
    redis.call('HINCRBY', KEYS[5], 'expired', 1)
    return 0
  end
  redis.call('ZADD', KEYS[2], 'XX', 'GT', now, visitor)
  users_add(KEYS[6], {now, visitor})
  return 1
end
local checked = tonumber(ARGV[3]) or 0
if checked <= 0 or redis.call('HEXISTS', KEYS[5], 'hold-until') == 0
    or redis.call('ZSCORE', KEYS[3], visitor) or redis.call('ZSCORE', KEYS[1], visitor) then
  return 0
end
if math.floor(checked / 1000) >= math.floor(rejoin_since(KEYS[5], now) / 1000) then
  return 0
end
-- GT adds a missing member as any ZADD does; it marks a session taken back, not an admission, so
-- admitted is left without it.
redis.call('ZADD', KEYS[2], 'GT', now, visitor)
users_add(KEYS[6], {now, visitor})
redis.call('HINCRBY', KEYS[5], 'rejoined-sessions', 1)
return 1
