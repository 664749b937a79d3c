-- Adds a gateway's request count for a queue to the current second's bucket and returns the
-- requests in the activation window (this second and the ones before it). Buckets older than the
-- window are dropped, and the hash expires when traffic stops, so it never holds more than about
-- window + 1 fields.
-- KEYS: 1 hits
-- ARGV: 1 now (ms), 2 requests to add, 3 window (s)
-- Reply: requests in the window, this one included
-- Not safe to repeat: a re-sent call counts twice, which only makes activation a little earlier.

local second, window = math.floor(tonumber(ARGV[1]) / 1000), tonumber(ARGV[3])
redis.call('HINCRBY', KEYS[1], second, tonumber(ARGV[2]))
local total = 0
local counts = redis.call('HGETALL', KEYS[1])
for i = 1, #counts, 2 do
  local s = tonumber(counts[i])
  if not s or s <= second - window then
    redis.call('HDEL', KEYS[1], counts[i])
  elseif s <= second then
    total = total + tonumber(counts[i + 1])
  end
end
redis.call('PEXPIRE', KEYS[1], (window + 1) * 1000)
return total
