-- Reference for admit.lua: what admission cannot do without, and nothing else: take the head of
-- the line, look up when each was last seen, and move those seen lately to running (the others to
-- finished), so the cost of the model's own logic (bucket, cap, measured rate, trimming seen) can be
-- told apart from the commands abandonment needs.
-- KEYS: 1 line, 2 running, 3 finished, 4 seen
-- ARGV: 1 now (ms), 2 batch, 3 oldest last-seen time still waiting (ms)
-- Reply: how many left the line
local popped = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[2]))
local members = {}
for i = 1, #popped, 2 do
  members[#members + 1] = popped[i]
end
if #members == 0 then
  return 0
end
local seen = redis.call('ZMSCORE', KEYS[4], unpack(members))
local oldest = tonumber(ARGV[3])
local enter, leave = {}, {}
for i = 1, #members do
  local last = tonumber(seen[i])
  local target = leave
  if last and last >= oldest then
    target = enter
  end
  target[#target + 1] = ARGV[1]
  target[#target + 1] = members[i]
end
if #enter > 0 then
  redis.call('ZADD', KEYS[2], unpack(enter))
end
if #leave > 0 then
  redis.call('ZADD', KEYS[3], unpack(leave))
end
return #members
