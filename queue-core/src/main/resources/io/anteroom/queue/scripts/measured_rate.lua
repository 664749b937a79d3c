-- Reads the queue's measured admission rate (rate.lua) without changing anything, for the
-- workers' gauge of it: the same figure visitors' waits are estimated from.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget (the room's;
--       unused here), 8 admitted (unused here)
-- ARGV: 1 now (ms)
-- Reply: the measured rate per 1000 s, 0 when too little was sampled lately to tell
-- Safe to repeat at any moment: it writes nothing.

--@include rate.lua
--@include clock.lua

return rate_read(KEYS[5], call_now(ARGV[1]))
