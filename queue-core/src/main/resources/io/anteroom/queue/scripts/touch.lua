-- Records activity of an admitted visitor, keeping the session alive.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget (the room's; unused here)
-- ARGV: 1 visitor, 2 now (ms)
-- Reply: 1 when the visitor is running, 0 otherwise
-- Safe to repeat at any later moment: it only moves the activity time of a running visitor forward
-- (XX GT). One whose session ended since stays finished; one admitted again keeps the later time.
-- The room's session moves with it (GT), and is written again if the room had trimmed it.

--@include sessions.lua


if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZADD', KEYS[2], 'XX', 'GT', tonumber(ARGV[2]), ARGV[1])
  sessions_add(KEYS[6], session_item(KEYS[2]), {tonumber(ARGV[2]), ARGV[1]}, 'GT')
  return 1
end
return 0
