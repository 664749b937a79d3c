-- Puts a visitor in line, keeping the place of one already there; admits at once when the line is
-- empty, admission is allowed (not paused) and both the token bucket and the cap allow (place.lua).
-- For an id that may have been in the queue before (a ticket holder); join.lua takes a new one.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget (the
--       room's: counts a session started at once, started.lua), 8 admitted (when the line let in
--       those running)
-- ARGV: 1 visitor, 2 now (ms), 3 admit per second, 4 burst (tokens), 5 max active,
--       6 admit at once allowed (1) or not (0),
--       7 draw: a uniform random number in [0, 1) for a random place, or '' for the back,
--       8 idle time to live (ms): how long the keys of a queue that is off are kept
--         (idle_keys.lua),
--       9 when the visitor's ticket says they joined (ms), 0 for none: one the line does not know
--         who joined before its incarnation began rejoins at their old place (rejoin.lua),
--       10 (optional) the room's total active users, 0 for none, 11 (optional) 1 when the room
--         limits new users per minute, 12 (optional) the queue's share of the room's places,
--       13 (optional) the place the visitor's ticket says they held (a score), '' for none: one
--         who rejoins takes it back, in the old line's order (rejoin.lua)
-- Reply: {outcome, position, waiting, requeued, added, rate, idle, cap activity, cap turns,
--   cap ends, room cap activity, room cap turns, room cap ends, room tokens, room refill,
--   admission}
--   outcome 1 = waiting at 1-based position, 2 = admitted (position 0), 3 = finished at or after
--   now, so left as they are (position 0; a repeated call, see below)
--   waiting: people in line after this call
--   requeued 1 when the visitor had finished (session ended, released, abandoned) and joins again
--   added 1 when this call put the visitor in line or in running, 0 when they were there already;
--   2 when they rejoined at their old place
--   rate: when waiting, the measured admission rate per 1000 s, 0 when not known (rate.lua); -1
--   when finished
--   idle 1 when the queue is off and its keys now live for the idle time to live, 0 when on
--   cap activity, cap turns, cap ends: while waiting, the running session whose end frees the
--   place (cap_wait.lua); -1, 0, 0 when the cap holds nobody back, or unless waiting
--   room cap activity .. room refill: while waiting, how the room's limits hold the place back
--   (cap_wait.lua room_wait); -1, 0, 0, 0, 0 otherwise
--   admission: when admitted, when the line let the visitor in (ms): now when this call did; 0 for
--   one found running without the line's admission (a pass given while the queue was off), and
--   unless admitted
--   place: when waiting, the score of the visitor's place (as ZSCORE gives it), for their ticket;
--   '' otherwise
-- Safe to repeat at any later moment: in line, the place is kept and seen only moves forward;
-- running, admitted is reported and nothing changes; finished at or after this call's now, the
-- visitor left after the call was sent, so they stay finished. Only a visitor who finished before
-- now joins again: one who really comes back sends a new call, with a later now. Clocks apart by
-- more than the time between leaving and coming back make a comeback look like a repeat once: the
-- visitor stays finished and their next request joins. A repeat after finished-retention (default
-- 1h) dropped the entry would join again; Lettuce re-sends a call only within about two command
-- timeouts.

--@include bucket.lua
--@include rate.lua
--@include sessions.lua
--@include started.lua
--@include rejoin.lua
--@include back.lua
--@include place.lua
--@include idle_keys.lua
--@include cap_wait.lua
--@include clock.lua

local visitor, now = ARGV[1], call_now(ARGV[2])

-- In line again at the place kept for those who were in it before the store came back empty.
local function rejoined(visitor, now, score)
  redis.call('ZADD', KEYS[1], 'NX', score, visitor)
  redis.call('ZADD', KEYS[4], now, visitor)
  redis.call('HINCRBY', KEYS[5], 'rejoined', 1)
  return {1, redis.call('ZRANK', KEYS[1], visitor) + 1, redis.call('ZCARD', KEYS[1]), 0, 2,
    rate_read(KEYS[5], now)}
end

local function enqueue()
  if redis.call('ZSCORE', KEYS[2], visitor) then
    return {2, 0, redis.call('ZCARD', KEYS[1]), 0, 0, 0}
  end
  local rank = redis.call('ZRANK', KEYS[1], visitor)
  if rank then
    redis.call('ZADD', KEYS[4], 'GT', now, visitor)
    return {1, rank + 1, redis.call('ZCARD', KEYS[1]), 0, 0, rate_read(KEYS[5], now)}
  end
  local left = redis.call('ZSCORE', KEYS[3], visitor)
  if not left then
    local score = rejoin_score(KEYS[5], tonumber(ARGV[9]) or 0, now, tonumber(ARGV[13]))
    if score then
      return rejoined(visitor, now, score)
    end
    return place(visitor, now, 0, true)
  end
  if tonumber(left) >= now then
    return {3, 0, redis.call('ZCARD', KEYS[1]), 0, 0, -1}
  end
  redis.call('ZREM', KEYS[3], visitor)
  return place(visitor, now, 1, true)
end

local idle = line_is_idle()
local reply = enqueue()
reply[7] = keep_if_idle(idle, tonumber(ARGV[8]), now)
reply[8], reply[9], reply[10] = -1, 0, 0
reply[11], reply[12], reply[13], reply[14], reply[15] = -1, 0, 0, 0, 0
reply[16] = 0
if reply[1] == 2 then
  reply[16] = tonumber(redis.call('ZSCORE', KEYS[8], visitor)) or 0
end
if reply[1] == 1 then
  reply[8], reply[9], reply[10] =
    cap_wait(KEYS[2], reply[2], reply[3], tonumber(ARGV[5]), now)
  reply[11], reply[12], reply[13], reply[14], reply[15] = room_wait(KEYS[6], KEYS[7], reply[2],
    reply[3], tonumber(ARGV[10]) or 0, ARGV[11] == '1', now, tonumber(ARGV[12]))
end
reply[17] = (reply[1] == 1 and redis.call('ZSCORE', KEYS[1], visitor)) or ''
return reply
