-- Records the would-be waits of a virtual line (a queue in shadow mode, QueueKeys shadow), and keeps
-- its keys alive while the mode is on. Nobody polls or touches a virtual line, so a session's score
-- in running stays its admission time and a seen entry stays the join time (join.lua): the wait is
-- their difference, and 0 for one admitted at once (running, no seen entry). Sessions admitted up to
-- a lag before now are read once: the state hash keeps the end of the span read so far
-- (waits-at); the lag lets a join admitted at once by a gateway whose call reached Redis after a
-- tick still fall in a later span. Their seen entries are removed, which keeps seen to those still
-- in line (admit.lua trims it only past abandon-after, which a virtual line never reaches).
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget, 8 admitted (the
--       virtual line's, as the queue scripts take them), 9 waits (the list of the last waits, ms,
--       newest first)
-- ARGV: 1 now (ms), 2 lag (ms), 3 most waits kept, 4 time to live of the nine keys (ms)
-- Reply: {waits recorded, length of the waits list}
-- Safe to repeat at any later moment: a repeat reads the span after the one already read, which the
-- same or an earlier now leaves empty; one with a later now reads only sessions admitted since.

--@include clock.lua

local now, lag, most = call_now(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local upto = now - lag
local from = tonumber(redis.call('HGET', KEYS[5], 'waits-at') or 0)

local recorded = 0
if upto > from then
  local admitted = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. from, upto, 'WITHSCORES')
  local visitors, waits = {}, {}
  for i = 1, #admitted, 2 do
    visitors[#visitors + 1] = admitted[i]
  end
  -- Only the last `most` count: older ones would be trimmed at once.
  local first = math.max(1, #visitors - most + 1)
  for i = 1, #visitors, 4000 do
    local piece = {unpack(visitors, i, math.min(i + 3999, #visitors))}
    local joined = redis.call('ZMSCORE', KEYS[4], unpack(piece))
    for j = 1, #piece do
      local at = i + j - 1
      if at >= first then
        local score = tonumber(admitted[2 * at])
        local join = tonumber(joined[j])
        waits[#waits + 1] = join and math.max(0, score - join) or 0
      end
    end
    redis.call('ZREM', KEYS[4], unpack(piece))
  end
  for i = 1, #waits, 4000 do
    redis.call('LPUSH', KEYS[9], unpack(waits, i, math.min(i + 3999, #waits)))
  end
  recorded = #waits
  if recorded > 0 then
    redis.call('LTRIM', KEYS[9], 0, most - 1)
  end
  redis.call('HSET', KEYS[5], 'waits-at', upto)
end
for i = 1, 9 do
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[4]))
end
return {recorded, redis.call('LLEN', KEYS[9])}
