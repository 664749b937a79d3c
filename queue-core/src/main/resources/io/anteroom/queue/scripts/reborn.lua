-- Starts again the line of a queue that was on when the store came back empty (active_read.lua):
-- its incarnation begins now (since), and until hold-until (rejoin.lua) it admits only visitors who
-- rejoined with a ticket older than that, and nobody at once, so that the line is back in its old
-- order before anyone who came after the loss goes in.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget (the room's),
--       8 admitted (only 5 is used)
-- ARGV: 1 now (ms), 2 hold until (ms)
-- Reply: 1 when the line's incarnation began with this call, 0 when it had begun already
-- Safe to repeat at any later moment: since is written only when missing, and hold-until only moves
-- forward.

--@include clock.lua

local now = call_now(ARGV[1])
local hold_until = now + tonumber(ARGV[2]) - tonumber(ARGV[1])
local began = redis.call('HSETNX', KEYS[5], 'since', now)
local held = tonumber(redis.call('HGET', KEYS[5], 'hold-until') or 0)
if hold_until > held then
  redis.call('HSET', KEYS[5], 'hold-until', hold_until)
end
return began
