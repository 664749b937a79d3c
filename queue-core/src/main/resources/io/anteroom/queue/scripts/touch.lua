-- Records activity of an admitted visitor, keeping the session alive; takes back the session of a
-- pass holder that the store lost when it came back empty.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget (the
--       room's; unused here)
-- ARGV: 1 visitor, 2 now (ms), 3 when the pass last had the session confirmed (ms), 0 for unknown
-- Reply: 1 when the visitor is running, 0 otherwise
-- A visitor neither running nor finished whose pass was confirmed a whole second before the line's
-- incarnation began (rejoin.lua: since, written by the recovery, or now when missing) had a session
-- the store lost: it runs again from now, counted by the cap and the room as before. A session
-- that ended is in finished for finished-retention, which outlasts a pass left unconfirmed. One in
-- line is known to the line too (the origin sent them back to the front, reenter.lua): a copy of
-- their pass never takes a session back beside their place.
-- Safe to repeat at any later moment: it only moves the activity time of a running visitor forward
-- (XX GT). One whose session ended since stays finished; one admitted again keeps the later time.
-- The room's session moves with it (GT), and is written again if the room had trimmed it. A session
-- taken back is running, so a repeat finds it so.

--@include sessions.lua
--@include rejoin.lua

local visitor, now = ARGV[1], tonumber(ARGV[2])
if redis.call('ZSCORE', KEYS[2], visitor) then
  redis.call('ZADD', KEYS[2], 'XX', 'GT', now, visitor)
  sessions_add(KEYS[6], session_item(KEYS[2]), {now, visitor}, 'GT')
  return 1
end
local checked = tonumber(ARGV[3]) or 0
if checked <= 0 or redis.call('ZSCORE', KEYS[3], visitor)
    or redis.call('ZSCORE', KEYS[1], visitor) then
  return 0
end
if math.floor(checked / 1000) >= math.floor(rejoin_since(KEYS[5], now) / 1000) then
  return 0
end
-- GT adds a missing member as any ZADD does; it marks a session taken back, not an admission.
redis.call('ZADD', KEYS[2], 'GT', now, visitor)
sessions_add(KEYS[6], session_item(KEYS[2]), {now, visitor}, '')
redis.call('HINCRBY', KEYS[5], 'rejoined-sessions', 1)
return 1
