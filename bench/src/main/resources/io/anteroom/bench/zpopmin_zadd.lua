-- Reference for admit.lua: the two commands admission needs at least, run as one script, so the
-- cost of the queue model can be told apart from the cost of moving members through Lua at all.
-- KEYS: 1 line, 2 running (sorted sets)
-- ARGV: 1 now (ms), 2 batch
-- Reply: how many moved
local popped = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[2]))
local entries = {}
for i = 1, #popped, 2 do
  entries[#entries + 1] = ARGV[1]
  entries[#entries + 1] = popped[i]
end
if #entries > 0 then
  redis.call('ZADD', KEYS[2], unpack(entries))
end
return #entries / 2
