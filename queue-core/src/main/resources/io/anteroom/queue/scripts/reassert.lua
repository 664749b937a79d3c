-- Writes back fields of a hash a gateway or worker last read, after the store came back empty
-- (active_read.lua): the queues that were on, a room's live settings. Each field only where
-- missing, so what is there now wins, and several callers re-asserting at once leave the union of
-- what they knew.
-- KEYS: 1 the hash (active queues, a room's settings)
-- ARGV: field, value, field, value, ...
-- Reply: the number of fields written
-- Safe to repeat at any later moment: only missing fields are written. A repeat after an operator
-- turned a queue off (or removed a setting) writes it back; a caller re-asserts only on the read
-- that found the loss, and Lettuce re-sends a call only within about two command timeouts (default
-- 500 ms).

local written = 0
for i = 1, #ARGV, 2 do
  written = written + redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
end
return written
