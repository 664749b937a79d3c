-- Records passes a gateway issued while the queue was off, so the cap counts them if the queue
-- turns on. While the queue is off nobody expires its sessions, so the running set is given a
-- time to live that each registration extends; the worker's expiry removes it once the queue is on.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state
-- ARGV: 1 now (ms), 2 time to live of the running set (ms), 3.. visitors
-- Reply: number of visitors new to running
-- Safe to repeat: activity times only move forward.

local now = tonumber(ARGV[1])
local entries = {}
for i = 3, #ARGV do
  entries[#entries + 1] = now
  entries[#entries + 1] = ARGV[i]
end
local added = redis.call('ZADD', KEYS[2], 'GT', unpack(entries))
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]))
return added
