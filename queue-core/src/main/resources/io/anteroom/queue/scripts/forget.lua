-- Deletes the keys of a queue that is off, to keep a room's idle lines within their bound
-- (idle.lua). The worker removes the time to live of an on queue's keys every tick (expire.lua),
-- while every write to an off queue's keys gives them one, so a key without one belongs to a queue
-- that is on: such a queue keeps its keys.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget (the room's;
--       unused here), 8 admitted
-- ARGV: 1 now (ms)
-- Reply: 1 when the keys were deleted (or there were none), 0 when the queue is on or its line was
--   written at or after now
-- Safe to repeat at any later moment: a second call finds nothing to delete, or a line a join or
-- an enqueue wrote since the first was sent (idle_keys.lua stamps written-at), which it keeps.

--@include clock.lua

local now = call_now(ARGV[1])
if tonumber(redis.call('HGET', KEYS[5], 'written-at') or 0) >= now then
  return 0
end
for _, i in ipairs({1, 2, 3, 4, 5, 8}) do
  if redis.call('PTTL', KEYS[i]) == -1 then
    return 0
  end
end
redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[8])
return 1
