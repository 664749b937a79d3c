-- Writes back a hash as a caller last read it (the active queues, a room's live settings), after
-- the store came back older than that read (active_read.lua, verdict 2): only while the hash's
-- generation is below the one the caller read, so of several callers the one that read last wins;
-- a change an operator or a gateway made since moved the generation to Redis's time
-- (generation.lua), past every generation read before the loss, so it is never undone. The hash
-- then holds exactly the caller's entries, at the caller's generation. Its own fields (beginning
-- with '.') other than the generation are left as they are.
-- KEYS: 1 the hash
-- ARGV: 1 the generation the caller read, then field, value, ... (the entries it read)
-- Reply: 1 when written, 0 when not
-- Safe to repeat at any later moment: a repeat finds the generation it wrote, not below its own.

local generation = tonumber(redis.call('HGET', KEYS[1], '.gen') or 0)
if generation >= tonumber(ARGV[1]) then
  return 0
end
local keep = {}
for i = 2, #ARGV - 1, 2 do
  keep[ARGV[i]] = true
end
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 1) ~= '.' and not keep[field] then
    redis.call('HDEL', KEYS[1], field)
  end
end
-- In chunks: unpack holds a few thousand values at most.
for i = 2, #ARGV, 1000 do
  redis.call('HSET', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('HSET', KEYS[1], '.gen', ARGV[1])
return 1
