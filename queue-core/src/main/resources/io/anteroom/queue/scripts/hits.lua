-- Adds one gateway's request counts of a flush, for any number of queues, each to its queue's
-- current second, and returns each queue's requests in its activation window (this second and the
-- ones before it). One call carries every count whose keys share a slot: all of a flush on one
-- Redis server, one call per slot on a Redis Cluster.
-- Per queue, most calls cost two commands. Seconds that left the window are not counted, and are
-- dropped at most once a window: then the 'tidied' field records the second and the hash is given
-- a time to live of two windows and five seconds. A tidy comes with the first call a window or more
-- after the last one, so the hash outlives every count still in a window (with gateway clocks a few
-- seconds apart), expires once traffic stops, and never holds more than about two windows of
-- fields.
-- KEYS: the hits hash of each queue, 1 to n
-- ARGV: 1 now (ms); then for the i-th key: 2i requests to add, 2i + 1 window (s)
-- Reply: for the i-th key, the requests in its window, this call's included
-- Not safe to repeat: a re-sent call counts twice, which only makes activation a little earlier;
-- it counts in its own second, so once that second has left the window, it counts for nothing.

--@include hits_window.lua
--@include clock.lua

local second = math.floor(call_now(ARGV[1]) / 1000)
local totals = {}
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[2 * i + 1])
  redis.call('HINCRBY', key, second, tonumber(ARGV[2 * i]))
  local total, stale, tidied = hits_in_window(key, second, window)
  if not tidied or second - tidied >= window then
    if #stale > 0 then
      redis.call('HDEL', key, unpack(stale))
    end
    redis.call('HSET', key, 'tidied', second)
    redis.call('PEXPIRE', key, (2 * window + 5) * 1000)
  end
  totals[i] = total
end
return totals
