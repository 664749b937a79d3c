-- Shared by enqueue.lua and join.lua: puts a visitor whom the caller found neither running nor
-- finished in line, or admits at once when the line is empty, admission is allowed (not paused)
-- and both the token bucket and the cap allow.
-- The line is one sorted set whose scores form blocks: a first-come newcomer takes the next
-- sequence number (a block of its own, at the back); a newcomer who draws (lottery, pre-queue)
-- takes seq + draw, a random place in the block [seq, seq + 1) that follows everyone who came
-- first-come before, and that the next first-come newcomer (seq + 1) follows. So those who drew
-- together leave in a uniformly shuffled order, with no reordering step.
-- A visitor admitted at once is an active user of the room (sessions.lua), counted in its measured
-- new users (started.lua, in the room's budget, KEYS[7]) unless active in another of its items, and
-- the line's admission is kept (admitted, KEYS[8]).
-- The first place given begins the line's incarnation, and a line held after the store came back
-- empty admits nobody at once (rejoin.lua).
-- Needs bucket.lua, rate.lua, sessions.lua, started.lua, rejoin.lua and back.lua (a first-come
-- place). The reply is enqueue.lua's; its rate is -1 when not asked for. seen, when given, is the
-- last-seen time written for the newcomer instead of now (join.lua).
-- The add to the line is NX, so a repeated join.lua call finds the place the first one made and
-- changes nothing but seen, which only moves forward.

-- The measured rate when asked for (rate.lua), else -1.
local function rate_if(want_rate, now)
  if want_rate then
    return rate_read(KEYS[5], now)
  end
  return -1
end

-- The visitor was in line already: a repeated join.lua call.
local function kept(visitor, now, want_rate, seen)
  redis.call('ZADD', KEYS[4], 'GT', seen or now, visitor)
  return {1, redis.call('ZRANK', KEYS[1], visitor) + 1, redis.call('ZCARD', KEYS[1]), 0, 0,
    rate_if(want_rate, now)}
end

-- length: the line's length if the caller read it in this call already, else nil.
local function place(visitor, now, requeued, want_rate, length, seen)
  redis.call('HSETNX', KEYS[5], 'since', now)
  length = length or redis.call('ZCARD', KEYS[1])
  if length == 0 and ARGV[6] == '1' and not rejoin_held(KEYS[5], now) then
    local tokens, refill = bucket_tokens(KEYS[5], now, tonumber(ARGV[3]), tonumber(ARGV[4]))
    if tokens >= 1 and redis.call('ZCARD', KEYS[2]) < tonumber(ARGV[5]) then
      redis.call('ZADD', KEYS[2], now, visitor)
      redis.call('ZADD', KEYS[8], now, visitor)
      bucket_store(KEYS[5], tokens - 1, refill)
      redis.call('HINCRBY', KEYS[5], 'admitted', 1)
      started_count(KEYS[7], now, users_add(KEYS[6], {now, visitor}))
      return {2, 0, 0, requeued, 1, 0}
    end
  end

  local draw = tonumber(ARGV[7])
  if not draw then
    local reply = back(visitor, now, length, requeued, seen)
    if not reply then
      return kept(visitor, now, want_rate, seen)
    end
    reply[6] = rate_if(want_rate, now)
    return reply
  end

  local block = tonumber(redis.call('HGET', KEYS[5], 'seq') or 0)
  local score = block + draw
  if score >= block + 1 then
    -- Rounding at a large block number; the lowest place of the block keeps it before the next one.
    score = block
  end
  if redis.call('ZADD', KEYS[1], 'NX', score, visitor) == 0 then
    return kept(visitor, now, want_rate, seen)
  end
  redis.call('ZADD', KEYS[4], seen or now, visitor)
  redis.call('HINCRBY', KEYS[5], 'drawn', 1)
  return {1, redis.call('ZRANK', KEYS[1], visitor) + 1, length + 1, requeued, 1,
    rate_if(want_rate, now)}
end
