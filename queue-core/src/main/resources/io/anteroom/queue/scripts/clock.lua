-- Shared by every script that takes the caller's now: the time the call decides by (ms). Redis's
-- own clock (TIME) is the only clock: a caller's now ahead of it is taken as Redis's now, so no
-- process whose clock runs ahead can move a bucket's refill, a session's end, a line's abandonment
-- or a finished stamp into the future; a caller's now more than LATE_MS behind it is taken as
-- LATE_MS behind, so a clock far behind cannot hold state back for long. Within that window the
-- caller's now stands: it is when the call was sent, and the scripts' repeat guards compare it with
-- what happened since (a call re-sent after a dropped connection, or one that waited behind a slow
-- server, runs later than it was sent). Tests and the simulator run the same scripts on a virtual
-- clock (clock_virtual.lua, LuaScript#onCallersClock), never the gateways and workers.

local LATE_MS = 10000

local function call_now(caller)
  local time = redis.call('TIME')
  local redis_now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local now = tonumber(caller)
  if now == nil or now > redis_now then
    return redis_now
  end
  return math.max(now, redis_now - LATE_MS)
end
