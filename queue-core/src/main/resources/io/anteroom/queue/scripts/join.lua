-- Puts a newcomer in line, or admits at once as enqueue.lua does (place.lua), for an id minted
-- for this very request: nobody else can hold a place under it, so a first-come newcomer's place
-- is the line's length + 1 and the only look-ups are the two a re-sent call needs.
-- The usual join, a first-come newcomer behind others, goes to the back (back.lua) before the
-- helpers of every other case are defined: Lua makes a closure for each function a script defines
-- on every call, and those helpers (place.lua and what it needs) would cost that join about as
-- much as two more commands.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget (the
--       room's: counts a session started at once, started.lua)
-- ARGV: 1-7 as enqueue.lua's; 8 read the measured rate (1) or not (0); 9 idle time to live (ms)
-- Reply: as enqueue.lua's (requeued is 0); rate -1 when not read
-- Safe to repeat at any later moment: the id was minted for one join, so finding it anywhere means
-- this call was made already. In line: the place is kept (the add is NX) and seen only moves
-- forward. Running: admitted is reported and nothing changes. Finished: the visitor joined and left
-- since, so they are not put back in line (outcome 3); if they come back, it is with their ticket,
-- through enqueue.lua. The one repeat not recognised comes after finished-retention (default 1h)
-- has dropped the finished entry; Lettuce re-sends a call only until its command timeout (default
-- 500ms). A call arriving after a clear joins anew, as the first one would have had it come late.

--@include back.lua
--@include idle_keys.lua
--@include cap_wait.lua

local visitor, now, want_rate = ARGV[1], tonumber(ARGV[2]), ARGV[8] == '1'
local idle = line_is_idle()

-- The reply with its idle flag and, for one waiting, the session whose end frees their place.
local function replied(reply)
  reply[7] = keep_if_idle(idle, tonumber(ARGV[9]))
  reply[8], reply[9], reply[10] = -1, 0, 0
  if reply[1] == 1 then
    reply[8], reply[9], reply[10] = cap_wait(KEYS[2], reply[2], reply[3], tonumber(ARGV[5]), now)
  end
  return reply
end

if redis.call('ZSCORE', KEYS[2], visitor) then
  return replied({2, 0, redis.call('ZCARD', KEYS[1]), 0, 0, 0})
end
if redis.call('ZSCORE', KEYS[3], visitor) then
  return replied({3, 0, redis.call('ZCARD', KEYS[1]), 0, 0, -1})
end
if ARGV[7] == '' and not want_rate then
  local length = redis.call('ZCARD', KEYS[1])
  if length > 0 then
    local reply = back(visitor, now, length, 0)
    if reply then
      return replied(reply)
    end
  end
end

--@include bucket.lua
--@include rate.lua
--@include sessions.lua
--@include started.lua
--@include rejoin.lua
--@include place.lua

return replied(place(visitor, now, 0, want_rate))
