-- Moves visitors from the head of the line to running at the queue's rate.
-- Refills the token bucket from the elapsed time, then admits
-- n = min(tokens, max active - running, batch) visitors in order. Visitors not seen within the
-- abandon timeout are finished as abandoned on the way and cost neither tokens nor slots; at most
-- four batches are looked at per call, so one call stays short.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state
-- ARGV: 1 now (ms), 2 admit per second, 3 burst (tokens), 4 max active, 5 batch limit,
--       6 abandon after (ms)
-- Reply: {admitted, abandoned, waiting, running}
-- Seen entries are not removed one by one on admission: each call trims up to one batch of entries
-- older than the abandon timeout instead, one range removal for the lot. Everyone in line was
-- written to seen when joining, so one missing from it was trimmed and is gone.
-- Each call also samples the measured admission rate (rate.lua) while people are left waiting.
-- Safe to repeat at any later moment: a repeated call spends only the tokens left (the refill time
-- never moves back), so the rate and the cap still hold, and it takes only from the head of the
-- line, so nobody is admitted twice. Its now is when it was first sent: those it admits start a
-- session that much older, and abandonment is judged as of then (fewer, never more, finished).

--@include bucket.lua
--@include rate.lua

-- ZADD with every pair at once, in pieces under Lua's limit on unpacked values (8000).
local function zadd_all(key, entries)
  for i = 1, #entries, 4000 do
    redis.call('ZADD', key, unpack(entries, i, math.min(i + 3999, #entries)))
  end
end

local now, rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local max_active, batch, abandon_after = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local oldest = now - abandon_after

local tokens, refill = bucket_tokens(KEYS[5], now, rate, burst)
local running = redis.call('ZCARD', KEYS[2])
local n = math.min(math.floor(tokens), max_active - running, batch)

local admitted, abandoned, scanned = 0, 0, 0
while admitted < n and scanned < 4 * batch do
  -- The head by rank, then removed by rank: members only, so no scores come back to Lua.
  local members = redis.call('ZRANGE', KEYS[1], 0, n - admitted - 1)
  local count = #members
  if count == 0 then
    break
  end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, count - 1)
  local seen = redis.call('ZMSCORE', KEYS[4], unpack(members))
  local enter, leave = {}, {}
  for i = 1, count do
    local last = tonumber(seen[i])
    local target = leave
    if last and last >= oldest then
      target = enter
    end
    -- ARGV[1] is now as a string: passing a Lua number would format it anew for every visitor.
    target[#target + 1] = ARGV[1]
    target[#target + 1] = members[i]
  end
  if #enter > 0 then
    zadd_all(KEYS[2], enter)
    admitted = admitted + #enter / 2
  end
  if #leave > 0 then
    zadd_all(KEYS[3], leave)
    abandoned = abandoned + #leave / 2
  end
  scanned = scanned + count
end

local stale = redis.call('ZCOUNT', KEYS[4], '-inf', '(' .. oldest)
if stale > 0 then
  redis.call('ZREMRANGEBYRANK', KEYS[4], 0, math.min(stale, batch) - 1)
end
if admitted > 0 then
  redis.call('HINCRBY', KEYS[5], 'admitted', admitted)
end
if abandoned > 0 then
  redis.call('HINCRBY', KEYS[5], 'abandoned', abandoned)
end
bucket_store(KEYS[5], tokens - admitted, refill)
local waiting = redis.call('ZCARD', KEYS[1])
rate_sample(KEYS[5], now, admitted, waiting)
return {admitted, abandoned, waiting, running + admitted}
