-- Shared by the scripts that drop old entries of a sorted set (expire.lua, enter.lua,
-- room_admit.lua): removes its lowest-scored members up to a score, at most TRIM_MOST a call, so one
-- call stays short whatever piled up (one range removal of 200,000 members took 66 ms, and Redis
-- serves nobody meanwhile). What is left is removed by the next calls; until then it is counted,
-- so a room's sessions count a few idle users more, never fewer, and the callers judge by score
-- whether one of them is still inside (enter.lua, room_admit.lua).

-- The same as RedisQueueStore.EXPIRE_LIMIT: the worker calls expire.lua again after a full trim.
local TRIM_MOST = 1000

-- key: the sorted set; upto: the highest score removed, as ZCOUNT takes it ('(' for exclusive).
-- Returns how many it removed.
local function trim_below(key, upto)
  local count = math.min(redis.call('ZCOUNT', key, '-inf', upto), TRIM_MOST)
  if count > 0 then
    redis.call('ZREMRANGEBYRANK', key, 0, count - 1)
  end
  return count
end
