-- Where a visitor stands, refreshing the last-seen time of one who is waiting.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's users), 7 budget
--       (the room's), 8 admitted (when the line let in those running)
-- ARGV: 1 visitor, 2 now (ms), 3 max active: the cap of the queue, 0 to leave the cap out,
--       4 (optional) the room's total active users, 0 for none, 5 (optional) 1 when the room limits
--       new users per minute, 6 (optional) the queue's share of the room's places (room_wait)
-- Reply: {state, position, waiting, admitted at, rate, cap activity, cap turns, cap ends, front,
--   room cap activity, room cap turns, room cap ends, room tokens, room refill, admission}
--   state 1 = waiting at 1-based position, 2 = admitted, 3 = finished (session ended, released or
--   abandoned), 0 = unknown; waiting: people in line; admitted at: when admitted, the session's
--   last activity (ms), which is the admission time until the visitor's first request with a pass;
--   rate: the measured admission rate per 1000 s, 0 when not known (rate.lua)
--   cap activity, cap turns, cap ends: while waiting, the running session whose end frees the
--   place (cap_wait.lua); -1, 0, 0 when the cap holds nobody back, or unless waiting
--   front: 1 while waiting at the front kept for those the origin failed (front.lua), 0 otherwise
--   room cap activity .. room refill: while waiting, how the room's limits hold the place back
--   (cap_wait.lua room_wait); -1, 0, 0, 0, 0 otherwise
--   admission: when admitted, when the line let the visitor in (ms); 0 for one running without
--   the line's admission (a pass given while the queue was off, a session taken back), and unless
--   admitted
-- Safe to repeat at any later moment: it only moves the seen time of a visitor in line forward, and
-- the reply tells where the visitor stands when it runs.

--@include rate.lua
--@include cap_wait.lua
--@include front.lua
--@include clock.lua

local visitor, now = ARGV[1], call_now(ARGV[2])
local length = redis.call('ZCARD', KEYS[1])

local rank = redis.call('ZRANK', KEYS[1], visitor)
if rank then
  redis.call('ZADD', KEYS[4], 'GT', now, visitor)
  local activity, turns, ends = cap_wait(KEYS[2], rank + 1, length, tonumber(ARGV[3]) or 0,
    now)
  local front = 0
  if front_place(redis.call('ZSCORE', KEYS[1], visitor)) then
    front = 1
  end
  local r_activity, r_turns, r_ends, r_tokens, r_refill = room_wait(KEYS[6], KEYS[7], rank + 1,
    length, tonumber(ARGV[4]) or 0, ARGV[5] == '1', now, tonumber(ARGV[6]))
  return {1, rank + 1, length, 0, rate_read(KEYS[5], now), activity, turns, ends, front,
    r_activity, r_turns, r_ends, r_tokens, r_refill, 0}
end
local active = redis.call('ZSCORE', KEYS[2], visitor)
if active then
  local admission = tonumber(redis.call('ZSCORE', KEYS[8], visitor)) or 0
  return {2, 0, length, tonumber(active), 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, admission}
end
if redis.call('ZSCORE', KEYS[3], visitor) then
  return {3, 0, length, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0}
end
return {0, 0, length, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0}
