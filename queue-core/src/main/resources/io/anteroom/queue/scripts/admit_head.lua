-- Shared by admit.lua and room_admit.lua: moves up to n visitors from the head of a line to
-- running, as of now. Visitors not seen since oldest are finished as abandoned on the way and take
-- no place; at most four times the batch are looked at, so one call stays short. Those admitted
-- become active users of the room (sessions.lua, which the caller includes), new users only if they
-- were not active in another of its items, and their admission by the line is kept (admitted).
-- Seen entries are not removed one by one on admission: admit_settle removes up to one batch of
-- entries older than the abandon timeout instead, one range removal for the lot, finishing those of
-- them still in line. Everyone in line was written to seen when joining, so one missing from it
-- was trimmed and is gone.

-- ZADD with every pair at once, in pieces under Lua's limit on unpacked values (8000).
local function zadd_all(key, entries)
  for i = 1, #entries, 4000 do
    redis.call('ZADD', key, unpack(entries, i, math.min(i + 3999, #entries)))
  end
end

-- k: the names of the line's waiting, running, admitted, finished and seen keys; now_text: now as
-- the string the caller was given (a Lua number would be formatted anew for every visitor).
-- Returns admitted, abandoned, and how many of those admitted were new to the room's users.
local function admit_head(k, users, n, now_text, oldest, batch)
  local admitted, abandoned, scanned, new_users = 0, 0, 0, 0
  while admitted < n and scanned < 4 * batch do
    -- The head by rank, then removed by rank: members only, so no scores come back to Lua.
    local members = redis.call('ZRANGE', k.waiting, 0, n - admitted - 1)
    local count = #members
    if count == 0 then
      break
    end
    redis.call('ZREMRANGEBYRANK', k.waiting, 0, count - 1)
    local seen = redis.call('ZMSCORE', k.seen, unpack(members))
    local enter, leave = {}, {}
    for i = 1, count do
      local last = tonumber(seen[i])
      local target = leave
      if last and last >= oldest then
        target = enter
      end
      target[#target + 1] = now_text
      target[#target + 1] = members[i]
    end
    if #enter > 0 then
      zadd_all(k.running, enter)
      zadd_all(k.admitted, enter)
      new_users = new_users + users_add(users, enter)
      admitted = admitted + #enter / 2
    end
    if #leave > 0 then
      zadd_all(k.finished, leave)
      abandoned = abandoned + #leave / 2
    end
    scanned = scanned + count
  end
  return admitted, abandoned, new_users
end

-- Trims up to one batch of seen entries older than oldest: those of visitors admitted since, and
-- of visitors still in line who stopped polling, who are finished as abandoned wherever they stand
-- (a line that does not move, its cap or its room full, would otherwise count them, and keep their
-- places, until they reached its head). Counts the call's outcome in the line's state hash. Returns
-- how many it finished.
local function admit_settle(k, state, oldest, batch, admitted, abandoned, now_text)
  local swept = 0
  local stale = redis.call('ZRANGEBYSCORE', k.seen, '-inf', '(' .. oldest, 'LIMIT', 0, batch)
  if #stale > 0 then
    redis.call('ZREMRANGEBYRANK', k.seen, 0, #stale - 1)
    local places = redis.call('ZMSCORE', k.waiting, unpack(stale))
    local gone, ended = {}, {}
    for i = 1, #stale do
      if places[i] then
        gone[#gone + 1] = stale[i]
        ended[#ended + 1] = now_text
        ended[#ended + 1] = stale[i]
      end
    end
    if #gone > 0 then
      redis.call('ZREM', k.waiting, unpack(gone))
      zadd_all(k.finished, ended)
      swept = #gone
    end
  end
  if admitted > 0 then
    redis.call('HINCRBY', state, 'admitted', admitted)
  end
  if abandoned + swept > 0 then
    redis.call('HINCRBY', state, 'abandoned', abandoned + swept)
  end
  return swept
end
