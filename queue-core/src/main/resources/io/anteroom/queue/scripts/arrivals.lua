-- Records the arrivals one gateway sampled in a room since its last flush, in the room's stream,
-- for a later replay. Each entry's id takes its time from the flush, never earlier than the
-- stream's last entry, so ids only grow across gateways; an arrival more than the latest delay
-- before its id's time, or after it, is left out. Every entry therefore lies within that delay of
-- its id, which lets a reader put a stream read in id order back into time order while it reads.
-- The stream keeps about the most entries given (trimmed whole nodes at a time) and expires the
-- time to live after the last flush that recorded anything.
-- KEYS: 1 arrivals (the room's stream)
-- ARGV: 1 now (ms), 2 sample (the share of newcomers recorded), 3 most entries kept,
--       4 time to live (ms), 5 latest delay (ms), then for each arrival: at (ms), item
-- Reply: {recorded, late}: entries added, and arrivals left out as too late (or ahead of the flush)
-- Not safe to repeat: a second call records the same arrivals again under later ids. So the gateway
-- never sends a call twice: the arrivals of a call that failed or timed out are dropped (and may
-- still have been recorded, when Redis ran the call after the gateway stopped waiting), and each
-- arrival is recorded at most once.

--@include clock.lua

local now, ttl, latest = call_now(ARGV[1]), tonumber(ARGV[4]), tonumber(ARGV[5])
local ms, seq = now, 0
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if top then
  local dash = string.find(top[1], '-', 1, true)
  local top_ms = tonumber(string.sub(top[1], 1, dash - 1))
  if top_ms >= now then
    ms, seq = top_ms, tonumber(string.sub(top[1], dash + 1)) + 1
  end
end
local recorded, late = 0, 0
for i = 6, #ARGV - 1, 2 do
  local at = tonumber(ARGV[i])
  if at and at <= ms and at >= ms - latest then
    redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], string.format('%d-%d', ms, seq),
      'at', ARGV[i], 'item', ARGV[i + 1], 'sample', ARGV[2])
    seq = seq + 1
    recorded = recorded + 1
  else
    late = late + 1
  end
end
if recorded > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {recorded, late}
