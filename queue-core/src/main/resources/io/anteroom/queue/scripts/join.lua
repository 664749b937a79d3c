-- Puts a newcomer in line, or admits at once as enqueue.lua does (place.lua), for an id minted
-- for this very request: it cannot be in running, waiting or finished yet, so none of enqueue's
-- look-ups is made, and a first-come newcomer's place is the line's length + 1.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state
-- ARGV: 1-7 as enqueue.lua's; 8 read the measured rate (1) or not (0); 9 idle time to live (ms)
-- Reply: as enqueue.lua's (requeued is 0); rate -1 when not read
-- Safe to repeat only with the same id: a second call would find nothing and queue it twice over
-- its own place, so the caller sends each minted id once.

--@include bucket.lua
--@include rate.lua
--@include place.lua
--@include idle_keys.lua

local idle = line_is_idle()
local reply = place(ARGV[1], tonumber(ARGV[2]), 0, ARGV[8] == '1')
reply[7] = keep_if_idle(idle, tonumber(ARGV[9]))
return reply
