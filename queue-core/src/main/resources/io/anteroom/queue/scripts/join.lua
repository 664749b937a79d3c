-- Puts a newcomer in line, or admits at once as enqueue.lua does (place.lua), for an id minted
-- for this very request: nobody else can hold a place under it, so a first-come newcomer's place
-- is the line's length + 1 and the only look-ups are the two a re-sent call needs.
-- The usual join, a first-come newcomer behind others, is made first with the few helpers it needs
-- (back.lua, idle_keys.lua, cap_wait.lua): Lua makes a closure of every function a script defines,
-- on every call, and the helpers of the other cases (place.lua and what it needs) would cost that
-- join about as much as two more commands. The other cases go on to them: an empty line, a draw, a
-- rate to read, an id found running or finished (looked up again there), and a re-sent call found
-- in line by the add (place.lua finds it there again and keeps the place).
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget (the
--       room's: counts a session started at once, started.lua), 8 admitted (when the line let in
--       those running)
-- ARGV: 1-7 as enqueue.lua's; 8 read the measured rate (1) or not (0); 9 idle time to live (ms);
--       10, 11, 12 as enqueue.lua's (the room's limits and the queue's share, for room_wait);
--       13 (optional) how long before now the newcomer is written as last seen (ms): abandon-after
--       minus the time a newcomer has to come back once, 0 for none
-- Reply: as enqueue.lua's (requeued is 0); rate -1 when not read
-- Safe to repeat at any later moment: the id was minted for one join, so finding it anywhere means
-- this call was made already. In line: the place is kept (the add is NX) and seen only moves
-- forward. Running: admitted is reported and nothing changes. Finished: the visitor joined and left
-- since, so they are not put back in line (outcome 3); if they come back, it is with their ticket,
-- through enqueue.lua. The one repeat not recognised comes after finished-retention (default 1h)
-- has dropped the finished entry; Lettuce re-sends a call only within about two command timeouts
-- (default 500ms). A call arriving after a clear joins anew, as the first one would have had it come late.

--@include back.lua
--@include idle_keys.lua
--@include cap_wait.lua
--@include clock.lua

local visitor, now, want_rate = ARGV[1], call_now(ARGV[2]), ARGV[8] == '1'
-- A newcomer counts as seen that much earlier until their first poll or return moves it to then: one
-- who never comes back (a one-shot request, a client that drops cookies) is given up, and passed
-- over at the head of the line, once the time to come back has passed, not a whole abandon-after.
local seen = now - (tonumber(ARGV[13]) or 0)
local idle = line_is_idle()
local length = redis.call('ZCARD', KEYS[1])

if length > 0 and ARGV[7] == '' and not want_rate
    and not redis.call('ZSCORE', KEYS[2], visitor) and not redis.call('ZSCORE', KEYS[3], visitor) then
  local reply = back(visitor, now, length, 0, seen)
  if reply then
    -- replied() below, written out: defining it here would cost this join its closure.
    reply[7] = keep_if_idle(idle, tonumber(ARGV[9]), now)
    reply[8], reply[9], reply[10] = cap_wait(KEYS[2], reply[2], reply[3], tonumber(ARGV[5]), now)
    reply[11], reply[12], reply[13], reply[14], reply[15] = room_wait(KEYS[6], KEYS[7], reply[2],
      reply[3], tonumber(ARGV[10]) or 0, ARGV[11] == '1', now, tonumber(ARGV[12]))
    reply[16] = 0
    reply[17] = redis.call('ZSCORE', KEYS[1], visitor) or ''
    return reply
  end
end

--@include bucket.lua
--@include rate.lua
--@include sessions.lua
--@include started.lua
--@include rejoin.lua
--@include place.lua

-- The reply with its idle flag and, for one waiting, the sessions whose ends free their place; for
-- one admitted, when the line let them in.
local function replied(reply)
  reply[7] = keep_if_idle(idle, tonumber(ARGV[9]), now)
  reply[8], reply[9], reply[10] = -1, 0, 0
  reply[11], reply[12], reply[13], reply[14], reply[15] = -1, 0, 0, 0, 0
  reply[16] = 0
  if reply[1] == 2 then
    reply[16] = tonumber(redis.call('ZSCORE', KEYS[8], visitor)) or 0
  end
  if reply[1] == 1 then
    reply[8], reply[9], reply[10] = cap_wait(KEYS[2], reply[2], reply[3], tonumber(ARGV[5]), now)
    reply[11], reply[12], reply[13], reply[14], reply[15] = room_wait(KEYS[6], KEYS[7], reply[2],
      reply[3], tonumber(ARGV[10]) or 0, ARGV[11] == '1', now, tonumber(ARGV[12]))
  end
  reply[17] = (reply[1] == 1 and redis.call('ZSCORE', KEYS[1], visitor)) or ''
  return reply
end

if redis.call('ZSCORE', KEYS[2], visitor) then
  return replied({2, 0, length, 0, 0, 0})
end
if redis.call('ZSCORE', KEYS[3], visitor) then
  return replied({3, 0, length, 0, 0, -1})
end
return replied(place(visitor, now, 0, want_rate, length, seen))
