-- Shared by the scripts that write a queue's running set: keeps the room's sessions (QueueKeys
-- sessions, KEYS[6] of the queue scripts) in step with it, so the room counts every running session
-- of every item, its queue on or off (total active users). Member 'item|visitor', score the last
-- activity, as in running. The item is the running key's part before ':running' (QueueKeys:
-- <prefix>:{room}:<item>:running); item ids hold no ':' or '|'.

local function session_item(running_key)
  return string.match(running_key, '}:([^:]+):running$')
end

-- Score and member pairs for ZADD on the sessions, from score and visitor pairs.
local function session_entries(item, entries)
  local out = {}
  for i = 1, #entries, 2 do
    out[i] = entries[i]
    out[i + 1] = item .. '|' .. entries[i + 1]
  end
  return out
end

-- ZADD the pairs to the sessions (flag '' or a ZADD option such as 'GT'), in pieces under Lua's
-- limit on unpacked values (8000).
local function sessions_add(key, item, entries, flag)
  local members = session_entries(item, entries)
  for i = 1, #members, 4000 do
    if flag == '' then
      redis.call('ZADD', key, unpack(members, i, math.min(i + 3999, #members)))
    else
      redis.call('ZADD', key, flag, unpack(members, i, math.min(i + 3999, #members)))
    end
  end
end

local function sessions_remove(key, item, visitors)
  local members = {}
  for i = 1, #visitors do
    members[i] = item .. '|' .. visitors[i]
  end
  for i = 1, #members, 4000 do
    redis.call('ZREM', key, unpack(members, i, math.min(i + 3999, #members)))
  end
end
