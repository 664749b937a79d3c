-- Shared by the scripts that admit: the admission token bucket kept in the queue's state hash.
-- Fields: tokens (float), refill (ms of the last refill). A new bucket starts full.
-- The refill time never moves backwards, so workers with skewed clocks cannot mint extra tokens.

local function bucket_tokens(state, now, rate, burst)
  local b = redis.call('HMGET', state, 'tokens', 'refill')
  local tokens, last = tonumber(b[1]), tonumber(b[2])
  if not tokens then
    return burst, now
  end
  local elapsed = math.max(0, now - last)
  return math.min(burst, tokens + elapsed * rate / 1000), math.max(last, now)
end

local function bucket_store(state, tokens, refill)
  redis.call('HSET', state, 'tokens', string.format('%.6f', tokens), 'refill', refill)
end
