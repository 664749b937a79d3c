-- Decides whether a queue that traffic turned on may be turned off: it must have been empty and
-- below the lower threshold (or without any traffic), without a break, for the cool-down. The start of the quiet spell is
-- kept in the state hash, so any number of workers agree.
-- When it is done, the queue's keys are given a time to live, so the keys of an item that was hot
-- once do not stay forever, and the state keeps when (settled-at); the worker's expiry removes the
-- time to live again while the queue is on, by a call made after that (expire.lua).
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget (unused),
--       8 admitted, 9 hits
-- ARGV: 1 now (ms), 2 window (s), 3 quiet below (requests per second), 4 cool-down (ms),
--       5 time to live of the keys once done (ms)
-- Reply: {done, requests in the window}; done 1 when the queue may be turned off now
-- Safe to repeat: the quiet spell only starts once and ends when the queue is busy again. A repeat
-- arriving later judges the window of its own now: it may end a quiet spell (the queue stays on a
-- cool-down longer) or start one as of its now, which only a queue that is empty and quiet at the
-- next call keeps; Lettuce re-sends a call only within about two command timeouts, far within a
-- cool-down.

--@include hits_window.lua
--@include clock.lua

local now, window = call_now(ARGV[1]), tonumber(ARGV[2])
local second = math.floor(now / 1000)
local total = hits_in_window(KEYS[9], second, window)

local quiet = (total == 0 or total < tonumber(ARGV[3]) * window) and redis.call('ZCARD', KEYS[1]) == 0
if not quiet then
  redis.call('HDEL', KEYS[5], 'quiet-since')
  return {0, total}
end
local since = tonumber(redis.call('HGET', KEYS[5], 'quiet-since'))
if not since then
  redis.call('HSET', KEYS[5], 'quiet-since', now)
  return {0, total}
end
if now - since >= tonumber(ARGV[4]) then
  redis.call('HDEL', KEYS[5], 'quiet-since')
  redis.call('HSET', KEYS[5], 'settled-at', now)
  for _, i in ipairs({2, 3, 4, 5, 8}) do
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[5]))
  end
  return {1, total}
end
return {0, total}
