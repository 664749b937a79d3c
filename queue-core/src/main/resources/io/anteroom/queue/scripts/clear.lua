-- Gives up every place in line at once, for a queue that closed with its line cleared. Visitors
-- who come back while it is closed are shown the closed page; after it opens they join anew.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget (the room's;
--       unused here), 8 admitted (unused here)
-- ARGV: none
-- Reply: number of visitors whose place was given up
-- Safe to repeat: a second call finds the line empty. One arriving after the queue opened again
-- clears those who joined since, as any clear does that a worker sends before its settings show
-- the opening; Lettuce re-sends a call only within about two command timeouts, well within that
-- lag.

local cleared = redis.call('ZCARD', KEYS[1])
if cleared > 0 then
  redis.call('UNLINK', KEYS[1], KEYS[4])
  redis.call('HINCRBY', KEYS[5], 'cleared', cleared)
end
return cleared
