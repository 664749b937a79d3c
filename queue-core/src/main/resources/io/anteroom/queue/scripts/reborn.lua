-- Starts again the line of a queue that was on when the store came back empty or older
-- (active_read.lua): its incarnation begins now (since), so visitors it lost who come back with a
-- ticket older than that rejoin at the front (rejoin.lua, which takes tickets only in a line a
-- recovery began: hold-until is written here and nowhere else). Came back empty, until hold-until
-- the line admits only those who rejoined, and nobody at once, so that it is back in its old order
-- before anyone who came after the loss goes in. Came back older, the line still holds the rest of
-- its order, which it goes on admitting: until hold-until it admits nobody behind hold-below, its
-- last place at the recovery (rejoin.lua), and those lost rejoin ahead of it as they return.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget (the room's),
--       8 admitted (1 and 5 are used)
-- ARGV: 1 now (ms), 2 hold until (ms), 3 'older' when the store came back older, '' when empty
-- Reply: 1 when the line's incarnation began with this call, 0 when it had begun already
-- Safe to repeat at any later moment: came back empty, since is written only when missing, and
-- hold-until only moves forward; came back older, a repeat moves since to its own now, which lets
-- no one rejoin who is not lost (everyone else is known to the line), and keeps hold-below while
-- the line is held, so newcomers since the first call stay behind it.

--@include rejoin.lua
--@include clock.lua

local now = call_now(ARGV[1])
local hold_until = now + tonumber(ARGV[2]) - tonumber(ARGV[1])
local began = 1
if ARGV[3] == 'older' then
  redis.call('HSET', KEYS[5], 'since', now)
  if not rejoin_held(KEYS[5], now) then
    local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
    redis.call('HSET', KEYS[5], 'hold-below', last or '(0')
    -- Newcomers who draw take places in the block after it, not among those kept (place.lua).
    redis.call('HINCRBY', KEYS[5], 'seq', 1)
  end
else
  began = redis.call('HSETNX', KEYS[5], 'since', now)
end
local held = tonumber(redis.call('HGET', KEYS[5], 'hold-until') or 0)
if hold_until > held then
  redis.call('HSET', KEYS[5], 'hold-until', hold_until)
end
return began
