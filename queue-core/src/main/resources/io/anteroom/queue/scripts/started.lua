-- Shared by the scripts that start sessions (admit.lua, room_admit.lua, place.lua, register.lua,
-- enter.lua; not touch.lua, which renews one), each counting the visitors new to the room's users
-- (sessions.lua), not the items they open, and by room_totals.lua (read): the room's measured new
-- users per minute, kept in the room's budget hash so every worker and gateway reads one figure.
-- Fields: started-sum (sessions started, decayed), started-weight (ms of time, decayed the same
-- way), started-at (ms of the last count).
-- Both decay with a time constant of 60 s, and unlike rate.lua all time since the first count is
-- sampled, busy or not: the figure is sum / weight, an exponentially weighted mean whose weight is
-- exactly the decayed time, so a room where nobody starts anything falls towards 0. The first
-- count starts the clock. A reading applies the time since the last count the same way.
-- Safe to repeat: a count at the same moment adds no time, only the sessions it started; the clock
-- never moves back, so a worker with a clock behind adds no time either.

local STARTED_TAU_MS = 60000
local STARTED_MIN_WEIGHT_MS = 1000

-- Sum and weight decayed from the last count to now, and the later of the two times.
local function started_decayed(budget, now)
  local r = redis.call('HMGET', budget, 'started-sum', 'started-weight', 'started-at')
  local sum, weight, at = tonumber(r[1]) or 0, tonumber(r[2]) or 0, tonumber(r[3])
  if not at then
    return sum, weight, now
  end
  local decay = math.exp(-math.max(0, now - at) / STARTED_TAU_MS)
  return sum * decay, weight + (STARTED_TAU_MS - weight) * (1 - decay), math.max(at, now)
end

-- Counts n sessions started now (n above 0; a call that started none writes nothing).
local function started_count(budget, now, n)
  if n <= 0 then
    return
  end
  local sum, weight, at = started_decayed(budget, now)
  redis.call('HSET', budget, 'started-sum', string.format('%.6f', sum + n),
    'started-weight', string.format('%.3f', weight), 'started-at', at)
end

-- The room's new users per 1000 minutes as of now (an integer reply), or 0 when less than a
-- second has been sampled, too little to tell.
local function started_read(budget, now)
  local sum, weight = started_decayed(budget, now)
  if weight < STARTED_MIN_WEIGHT_MS then
    return 0
  end
  return math.floor(sum / weight * 60000 * 1000 + 0.5)
end
