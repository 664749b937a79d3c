-- Shared by the scripts that start, renew or end sessions: the room's active users (QueueKeys
-- sessions, KEYS[6] of the queue scripts). One member per visitor, scored by their last activity on
-- any item of the room, its queue on or off: a visitor who opens many items of the room is one
-- active user (total active users) and starts one new user (new users per minute, counted by the
-- callers from what users_add reports as new), while each item's running set keeps its own
-- sessions (max-active). A member leaves once idle past the room's idle limit (room_admit.lua,
-- enter.lua, with the room's own limit, never a queue's), or when the session that ends was the
-- visitor's last in the room (users_leave).

-- Records activity (score and visitor pairs, as in running) in the room's users, scores only moving
-- forward, in pieces under Lua's limit on unpacked values (8000). Returns how many of the visitors
-- were new to the room.
local function users_add(key, entries)
  local added = 0
  for i = 1, #entries, 4000 do
    added = added + redis.call('ZADD', key, 'GT', unpack(entries, i, math.min(i + 3999, #entries)))
  end
  return added
end

-- Takes a visitor whose session in one item ended out of the room's users, unless they still run
-- in another of the room's items: those whose running keys are named in others.
local function users_leave(key, visitor, others)
  for _, running in ipairs(others) do
    if redis.call('ZSCORE', running, visitor) then
      return
    end
  end
  redis.call('ZREM', key, visitor)
end

-- Whether a running session last active at score (ms, nil when not running) is alive at now: active
-- since now - idle_limit, or, when the room keeps admissions alive by activity on any of its items
-- (scope 'room'), the visitor's last activity in the room is.
local function session_alive(score, users, visitor, now, idle_limit, scope)
  if not score then
    return false
  end
  if tonumber(score) >= now - idle_limit then
    return true
  end
  if scope ~= 'room' then
    return false
  end
  local last = redis.call('ZSCORE', users, visitor)
  return last and tonumber(last) >= now - idle_limit
end
