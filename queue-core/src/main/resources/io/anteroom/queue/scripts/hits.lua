-- Adds a gateway's request count for a queue to the current second's bucket and returns the
-- requests in the activation window (this second and the ones before it).
-- Most calls cost two commands. Seconds that left the window are not counted, and are dropped at
-- most once a window: then the 'tidied' field records the second and the hash is given a time to
-- live of two windows and five seconds. A tidy comes with the first call a window or more after
-- the last one, so the hash outlives every count still in a window (with gateway clocks a few
-- seconds apart), expires once traffic stops, and never holds more than about two windows of
-- fields.
-- KEYS: 1 hits
-- ARGV: 1 now (ms), 2 requests to add, 3 window (s)
-- Reply: requests in the window, this one included
-- Not safe to repeat: a re-sent call counts twice, which only makes activation a little earlier;
-- it counts in its own second, so once that second has left the window, it counts for nothing.

--@include hits_window.lua

local second, window = math.floor(tonumber(ARGV[1]) / 1000), tonumber(ARGV[3])
redis.call('HINCRBY', KEYS[1], second, tonumber(ARGV[2]))
local total, stale, tidied = hits_in_window(KEYS[1], second, window)
if not tidied or second - tidied >= window then
  if #stale > 0 then
    redis.call('HDEL', KEYS[1], unpack(stale))
  end
  redis.call('HSET', KEYS[1], 'tidied', second)
  redis.call('PEXPIRE', KEYS[1], (2 * window + 5) * 1000)
end
return total
