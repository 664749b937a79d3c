-- Puts a visitor in line, keeping the place of one already there; admits at once when the line is
-- empty, admission is allowed (not paused) and both the token bucket and the cap allow.
-- The line is one sorted set whose scores form blocks: a first-come newcomer takes the next
-- sequence number (a block of its own, at the back); a newcomer who draws (lottery, pre-queue)
-- takes seq + draw, a random place in the block [seq, seq + 1) that follows everyone who came
-- first-come before, and that the next first-come newcomer (seq + 1) follows. So those who drew
-- together leave in a uniformly shuffled order, with no reordering step.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state
-- ARGV: 1 visitor, 2 now (ms), 3 admit per second, 4 burst (tokens), 5 max active,
--       6 admit at once allowed (1) or not (0),
--       7 draw: a uniform random number in [0, 1) for a random place, or '' for the back
-- Reply: {outcome, position, waiting, requeued, added, rate}
--   outcome 1 = waiting at 1-based position, 2 = admitted (position 0)
--   waiting: people in line after this call
--   requeued 1 when the visitor had finished (session ended, released, abandoned) and joins again
--   added 1 when this call put the visitor in line or in running, 0 when they were there already
--   rate: when waiting, the measured admission rate per 1000 s, 0 when not known (rate.lua)
-- Safe to repeat: a second call finds the visitor in waiting or running and changes nothing but seen.

--@include bucket.lua
--@include rate.lua

local visitor, now = ARGV[1], tonumber(ARGV[2])

if redis.call('ZSCORE', KEYS[2], visitor) then
  return {2, 0, redis.call('ZCARD', KEYS[1]), 0, 0, 0}
end

local rank = redis.call('ZRANK', KEYS[1], visitor)
if rank then
  redis.call('ZADD', KEYS[4], now, visitor)
  return {1, rank + 1, redis.call('ZCARD', KEYS[1]), 0, 0, rate_read(KEYS[5], now)}
end

local requeued = redis.call('ZREM', KEYS[3], visitor)
local length = redis.call('ZCARD', KEYS[1])

if length == 0 and ARGV[6] == '1' then
  local tokens, refill = bucket_tokens(KEYS[5], now, tonumber(ARGV[3]), tonumber(ARGV[4]))
  if tokens >= 1 and redis.call('ZCARD', KEYS[2]) < tonumber(ARGV[5]) then
    bucket_store(KEYS[5], tokens - 1, refill)
    redis.call('ZADD', KEYS[2], now, visitor)
    redis.call('HINCRBY', KEYS[5], 'admitted', 1)
    return {2, 0, 0, requeued, 1, 0}
  end
end

local draw = tonumber(ARGV[7])
if not draw then
  local seq = redis.call('HINCRBY', KEYS[5], 'seq', 1)
  redis.call('ZADD', KEYS[1], seq, visitor)
  redis.call('ZADD', KEYS[4], now, visitor)
  return {1, length + 1, length + 1, requeued, 1, rate_read(KEYS[5], now)}
end

local block = tonumber(redis.call('HGET', KEYS[5], 'seq') or 0)
local score = block + draw
if score >= block + 1 then
  -- Rounding at a large block number; the lowest place of the block keeps it before the next one.
  score = block
end
redis.call('ZADD', KEYS[1], score, visitor)
redis.call('ZADD', KEYS[4], now, visitor)
redis.call('HINCRBY', KEYS[5], 'drawn', 1)
return {1, redis.call('ZRANK', KEYS[1], visitor) + 1, length + 1, requeued, 1,
  rate_read(KEYS[5], now)}
