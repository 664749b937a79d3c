-- Shared by place.lua and join.lua: puts a first-come visitor at the back of a line of length
-- visitors, under the next sequence number, and writes when they were last seen.
-- The first place given under sequence number 1 begins the line's incarnation (since, rejoin.lua)
-- unless something began it before; every later one follows it in the same state hash, so no other
-- back place needs to look (place.lua begins it for the other places it gives).
-- Needs rate.lua. Returns place.lua's reply, or nil when the visitor was in line already: the add
-- is NX, and the sequence number taken is given back.

-- The measured rate when asked for (rate.lua), else -1.
local function rate_if(want_rate, now)
  if want_rate then
    return rate_read(KEYS[5], now)
  end
  return -1
end

local function back(visitor, now, length, requeued, want_rate)
  local seq = redis.call('HINCRBY', KEYS[5], 'seq', 1)
  if redis.call('ZADD', KEYS[1], 'NX', seq, visitor) == 0 then
    redis.call('HINCRBY', KEYS[5], 'seq', -1)
    return nil
  end
  if seq == 1 then
    redis.call('HSETNX', KEYS[5], 'since', now)
  end
  redis.call('ZADD', KEYS[4], now, visitor)
  return {1, length + 1, length + 1, requeued, 1, rate_if(want_rate, now)}
end
