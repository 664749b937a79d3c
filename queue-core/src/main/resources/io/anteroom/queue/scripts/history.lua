-- Records one sample of a room's line for the admin page's chart: the first sample of each interval
-- is kept, later ones of the same interval (other workers, later ticks) are dropped, and samples
-- older than the span are trimmed. The key expires after twice the span, so a room that is no
-- longer configured leaves nothing behind.
-- KEYS: 1 history
-- ARGV: 1 now (ms), 2 interval (ms), 3 span (ms), 4 waiting, 5 running, 6 finished,
--       7 admitted over the lifetime of the room's active queues
-- Reply: 1 when the sample was kept, 0 when its interval already had one
-- Safe to repeat at any later moment: a second call finds its interval sampled and changes nothing;
-- once that interval was trimmed, it adds a sample older than the span, which the next call trims.

--@include clock.lua

local now, interval, span = call_now(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local slot = now - now % interval
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (slot - span))
local kept = 0
if redis.call('ZCOUNT', KEYS[1], slot, slot) == 0 then
  redis.call('ZADD', KEYS[1], slot, table.concat({slot, ARGV[4], ARGV[5], ARGV[6], ARGV[7]}, ':'))
  kept = 1
end
redis.call('PEXPIRE', KEYS[1], 2 * span)
return kept
