-- Moves visitors from the head of the line to running at the queue's rate.
-- Refills the token bucket from the elapsed time, then admits
-- n = min(tokens, max active - running, batch) visitors in order. Visitors not seen within the
-- abandon timeout are finished as abandoned on the way and cost neither tokens nor slots; at most
-- four batches are looked at per call, so one call stays short; up to a batch more of them are
-- finished wherever they stand in line (admit_settle), also by a call that admits nobody.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget
--       (the room's: only its count of sessions started, started.lua; room_admit.lua admits for
--       rooms with limits), 8 admitted (when the line let in those running)
-- ARGV: 1 now (ms), 2 admit per second, 3 burst (tokens), 4 max active, 5 batch limit,
--       6 abandon after (ms)
-- Reply: {admitted, abandoned, waiting, running}
-- The admission itself, and the trimming of seen entries, are admit_head.lua's; those admitted
-- become active users of the room too (sessions.lua), and those new to it count in the room's new
-- users (started.lua).
-- Each call also samples the measured admission rate (rate.lua) while people are left waiting.
-- Safe to repeat at any later moment: a repeated call spends only the tokens left (the refill time
-- never moves back), so the rate and the cap still hold, and it takes only from the head of the
-- line, so nobody is admitted twice. Its now is when it was first sent: those it admits start a
-- session that much older, and abandonment is judged as of then (fewer, never more, finished).

--@include bucket.lua
--@include rate.lua
--@include sessions.lua
--@include admit_head.lua
--@include rejoin.lua
--@include started.lua
--@include clock.lua

local now, rate, burst = call_now(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local max_active, batch, abandon_after = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local oldest = now - abandon_after
local line = {waiting = KEYS[1], running = KEYS[2], finished = KEYS[3], seen = KEYS[4],
  admitted = KEYS[8]}

local tokens, refill = bucket_tokens(KEYS[5], now, rate, burst)
local running = redis.call('ZCARD', KEYS[2])
-- A line held after the store came back empty admits only those who rejoined (rejoin.lua).
local n = rejoin_limit(KEYS[5], KEYS[1], now,
  math.min(math.floor(tokens), max_active - running, batch))

local admitted, abandoned, new_users = admit_head(line, KEYS[6], n, now, oldest, batch)
abandoned = abandoned + admit_settle(line, KEYS[5], oldest, batch, admitted, abandoned, now)
bucket_store(KEYS[5], tokens - admitted, refill)
started_count(KEYS[7], now, new_users)
local waiting = redis.call('ZCARD', KEYS[1])
rate_sample(KEYS[5], now, admitted, waiting)
return {admitted, abandoned, waiting, running + admitted}
