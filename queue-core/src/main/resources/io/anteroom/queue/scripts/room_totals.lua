-- Reads a room's figures against its room-wide limits, for the admin API: its active users
-- (sessions.lua: people, not items) not idle past the room's idle limit, its measured new users
-- (started.lua), the people waiting in the queues given and whether it is marked full
-- (room_admit.lua).
-- KEYS: 1 budget, 2 sessions, then the waiting key of each queue to count
-- ARGV: 1 now (ms), 2 idle limit of a session (ms)
-- Reply: {active users, measured new users per 1000 minutes (0 until known), waiting, full (1
--   or 0)}
-- Safe to repeat at any moment: it writes nothing. Users past the idle limit are left for the
-- worker's tick to drop (room_admit.lua), only not counted.

--@include started.lua
--@include clock.lua

local now = call_now(ARGV[1])
local active = redis.call('ZCOUNT', KEYS[2], '(' .. (now - tonumber(ARGV[2])), '+inf')
local waiting = 0
for k = 3, #KEYS do
  waiting = waiting + redis.call('ZCARD', KEYS[k])
end
local full = 0
if redis.call('HGET', KEYS[1], 'full') == '1' then
  full = 1
end
return {active, started_read(KEYS[1], now), waiting, full}
