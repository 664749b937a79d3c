-- Shared by place.lua and join.lua: puts a first-come visitor at the back of a line of length
-- visitors, under the next sequence number, and writes when they were last seen: now, or the
-- earlier seen the caller gives for a newcomer who has not come back yet (join.lua).
-- The first place given under sequence number 1 begins the line's incarnation (since, rejoin.lua)
-- unless something began it before; every later one follows it in the same state hash, so no other
-- back place needs to look (place.lua begins it for the other places it gives).
-- Returns place.lua's reply with no rate (-1) and room for the caller's slots 7-10 (enqueue.lua),
-- or nil when the visitor was in line already: the add is NX, and the sequence number taken is
-- given back.

local function back(visitor, now, length, requeued, seen)
  local seq = redis.call('HINCRBY', KEYS[5], 'seq', 1)
  if redis.call('ZADD', KEYS[1], 'NX', seq, visitor) == 0 then
    redis.call('HINCRBY', KEYS[5], 'seq', -1)
    return nil
  end
  if seq == 1 then
    redis.call('HSETNX', KEYS[5], 'since', now)
  end
  redis.call('ZADD', KEYS[4], seen or now, visitor)
  return {1, length + 1, length + 1, requeued, 1, -1, 0, -1, 0, 0}
end
