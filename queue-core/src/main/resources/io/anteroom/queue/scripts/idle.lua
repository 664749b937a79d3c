-- Records that the keys of some of a room's queues were written while those queues were off, and
-- hands back the least recently written beyond the room's bound, taken out of the set, for the
-- caller to delete (forget.lua). The set lives as long as the longest-lived line it names.
-- KEYS: 1 the room's idle lines
-- ARGV: 1 now (ms), 2 most lines kept, 3 time to live of the set (ms), 4.. items
-- Reply: the items beyond the bound, least recently written first
-- Safe to repeat: a second call moves the times again and finds nothing more beyond the bound; it
-- replies nothing beyond it, so the lines the first call handed back are forgotten only when a
-- later write finds them beyond it again.

--@include clock.lua

local now = call_now(ARGV[1])
for i = 4, #ARGV, 2000 do
  local entries = {}
  for j = i, math.min(i + 1999, #ARGV) do
    entries[#entries + 1] = now
    entries[#entries + 1] = ARGV[j]
  end
  redis.call('ZADD', KEYS[1], unpack(entries))
end
local ttl = tonumber(ARGV[3])
if redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
if over <= 0 then
  return {}
end
local popped = redis.call('ZPOPMIN', KEYS[1], over)
local items = {}
for i = 1, #popped, 2 do
  items[#items + 1] = popped[i]
end
return items
