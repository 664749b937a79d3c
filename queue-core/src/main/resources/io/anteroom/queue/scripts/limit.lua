-- Counts one request for a new place from a client address in the current one-minute window,
-- unless the window holds the limit already (a refused request is not counted).
-- KEYS: 1 the address's counter of the current window
-- ARGV: 1 limit, 2 time to live of the counter (ms)
-- Reply: 1 when counted (allowed), 0 when over the limit
-- Not safe to repeat: a repeated call counts the request twice, erring on the strict side; the key
-- is the window's own, so once that window is over, a late repeat costs nobody anything.

local count = tonumber(redis.call('GET', KEYS[1]) or 0)
if count >= tonumber(ARGV[1]) then
  return 0
end
redis.call('INCR', KEYS[1])
if count == 0 then
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return 1
