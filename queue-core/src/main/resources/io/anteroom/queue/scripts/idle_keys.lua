-- Shared by the scripts that may write the keys of a queue that is off (enqueue.lua, join.lua).
-- While a queue is on, the worker removes the time to live of its keys every tick (expire.lua), so
-- its state hash has none. A line whose state hash has one, or none yet, belongs to a queue that
-- is off (or is just starting): each write gives all of its keys the idle time to live again, so a
-- line nobody writes to any more goes away by itself.

-- Whether the line is idle; asked before the script writes anything.
local function line_is_idle()
  return redis.call('PTTL', KEYS[5]) ~= -1
end

-- Gives every key of an idle line (KEYS 1-5 and 8) ttl (ms) to live, and stamps the state with
-- now (written-at), so a deletion sent before this write leaves the line alone (forget.lua).
-- Returns 1 when the line is idle, 0 otherwise.
local function keep_if_idle(idle, ttl, now)
  if not idle then
    return 0
  end
  redis.call('HSET', KEYS[5], 'written-at', now)
  for i = 1, 5 do
    redis.call('PEXPIRE', KEYS[i], ttl)
  end
  redis.call('PEXPIRE', KEYS[8], ttl)
  return 1
end
