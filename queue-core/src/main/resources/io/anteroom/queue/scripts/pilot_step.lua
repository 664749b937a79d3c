-- Moves a room's auto-pilot, unless another worker moved it since this one read it: the step
-- happens only when the stored decision time is still the one read (0 for none), so workers that
-- decide in the same second move it once. A change of share is added to the room's list of changes.
-- KEYS: 1 pilot, 2 pilot-log
-- ARGV: 1 decision time read (ms, 0 for none), 2 now (ms), 3 share, 4 reason, 5 1 to log the
--       change, 6 most changes kept, 7 time to live of both keys (ms), 8 peak share, 9 hold-until
--       (ms), 10 seen (ms), 11 highest share since the last slow-down
-- Reply: 1 when this step was taken, 0 when another worker's came first
-- The decision time is the caller's now bounded by Redis's clock (clock.lua), and hold-until and
-- seen move with it, so a worker whose clock runs ahead cannot hold the pilot for its lead.
-- Safe to repeat: a repeat finds its own decision time stored, changes nothing, and replies 0, as
-- if another worker's step came first (the worker then adopts the stored state, its own).

--@include clock.lua

local at = tonumber(redis.call('HGET', KEYS[1], 'at') or '0')
if at ~= tonumber(ARGV[1]) then
  return 0
end
local now = call_now(ARGV[2])
local shift = now - tonumber(ARGV[2])
local function moved(at)
  at = tonumber(at)
  if at > 0 then
    return at + shift
  end
  return at
end
redis.call('HSET', KEYS[1], 'share', ARGV[3], 'at', now, 'reason', ARGV[4], 'peak', ARGV[8],
  'hold-until', moved(ARGV[9]), 'seen', moved(ARGV[10]), 'high', ARGV[11])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[7]))
if ARGV[5] == '1' then
  redis.call('LPUSH', KEYS[2], now .. ' ' .. ARGV[3] .. ' ' .. ARGV[4])
  redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[6]) - 1)
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[7]))
end
return 1
