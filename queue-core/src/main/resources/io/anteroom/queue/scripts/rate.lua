-- Shared by admit.lua (writes) and status.lua / enqueue.lua (read): the measured admission rate,
-- kept in the queue's state hash so every worker adds to one estimate.
-- Fields: rate-sum (admissions, decayed), rate-weight (ms of sampled time, decayed the same way),
-- rate-at (ms of the last call), rate-open (1 when that call left people waiting).
-- Both sums decay with a time constant of 30 s, so the rate is sum / weight: an exponentially
-- weighted mean whose weight is exactly the decayed time sampled, unbiased from the first sample.
-- Only the time between two calls that each left people waiting is sampled: a line that drained
-- says nothing about the rate. A gap over 10 s (worker stopped, queue paused) is not sampled.
-- Safe to repeat: a call at the same time adds no sampled time and only the admissions it made.

local RATE_TAU_MS = 30000
local RATE_MAX_GAP_MS = 10000
local RATE_MIN_WEIGHT_MS = 500

local function rate_sample(state, now, admitted, waiting)
  local r = redis.call('HMGET', state, 'rate-sum', 'rate-weight', 'rate-at', 'rate-open')
  local sum, weight, at = tonumber(r[1]) or 0, tonumber(r[2]) or 0, tonumber(r[3])
  local elapsed = 0
  if at then
    elapsed = math.max(0, now - at)
  end
  local decay = math.exp(-elapsed / RATE_TAU_MS)
  sum, weight = sum * decay, weight * decay
  if r[4] == '1' and waiting > 0 and elapsed <= RATE_MAX_GAP_MS then
    sum = sum + admitted
    weight = weight + RATE_TAU_MS * (1 - decay)
  end
  local open = '0'
  if waiting > 0 then
    open = '1'
  end
  redis.call('HSET', state, 'rate-sum', string.format('%.6f', sum),
    'rate-weight', string.format('%.3f', weight), 'rate-at', math.max(at or now, now),
    'rate-open', open)
end

-- The measured rate in admissions per 1000 s (an integer reply), or 0 when too little was sampled
-- lately to tell.
local function rate_read(state, now)
  local r = redis.call('HMGET', state, 'rate-sum', 'rate-weight', 'rate-at')
  local sum, weight, at = tonumber(r[1]), tonumber(r[2]), tonumber(r[3])
  if not sum or not weight or not at then
    return 0
  end
  local decay = math.exp(-math.max(0, now - at) / RATE_TAU_MS)
  if weight * decay < RATE_MIN_WEIGHT_MS then
    return 0
  end
  return math.floor(sum / weight * 1000000 + 0.5)
end
