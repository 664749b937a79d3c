-- Records the arrivals one gateway sampled in a room since its last flush, in the room's stream,
-- for a later replay. Each entry's id takes its time from the flush, never earlier than the
-- stream's last entry, so ids only grow across gateways; an arrival more than the latest delay
-- before its id's time, or after it, is left out. Every entry therefore lies within that delay of
-- its id, which lets a reader put a stream read in id order back into time order while it reads.
-- The stream keeps about the most entries given (trimmed whole nodes at a time) and expires the
-- time to live after the last flush that recorded anything.
-- KEYS: 1 arrivals (the room's stream), 2 the ids of the room's flushes of the last minute
-- ARGV: 1 now (ms), 2 sample (the share of newcomers recorded), 3 most entries kept,
--       4 time to live (ms), 5 latest delay (ms), 6 the flush's id (unique to the call), then for
--       each arrival: at (ms), item
-- Reply: {recorded, late}: entries added, and arrivals left out as too late (or ahead of the flush);
--        {0, 0} for a repeat
-- Safe to repeat within a minute: a second call with the same flush id finds it among the
-- flushes of the last minute and records nothing. Lettuce re-sends a call only within about two
-- command timeouts; the gateway itself never sends a call twice: the arrivals of a call that failed
-- or timed out are dropped (and may still have been recorded, when Redis ran the call after the
-- gateway stopped waiting), and each arrival is recorded at most once.

--@include clock.lua

local REPEAT_MS = 60000

local now, ttl, latest = call_now(ARGV[1]), tonumber(ARGV[4]), tonumber(ARGV[5])
if redis.call('ZSCORE', KEYS[2], ARGV[6]) then
  return {0, 0}
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - REPEAT_MS)
redis.call('ZADD', KEYS[2], now, ARGV[6])
redis.call('PEXPIRE', KEYS[2], REPEAT_MS)
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
for i = 7, #ARGV - 1, 2 do
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
