-- Shared by status.lua, enqueue.lua and join.lua (reads only): which running session has to end
-- before the visitor at a place in line can be admitted, when the cap on running sessions holds
-- the place back; and the same for the room's limits (room_wait). Running is scored by last activity and every session ends the same idle limit
-- after it, so the n-th earliest end is the member at rank n - 1.
-- The places up to the free slots (max active - running) need no session to end. The place after
-- them needs the first end, and so on: the n-th place past the free slots is freed by the n-th
-- end. Past max active ends the slot comes round again, freed once whoever took it ends in turn,
-- a whole session later; a slot that was free now comes round as a session that starts now.
-- Returns three numbers: the last activity (ms) of the session whose end (plus turns whole
-- sessions) frees the place; 0 when a slot is free for the place but not for everyone in line (the
-- cap binds behind it, so the admissions measured lately are session ends, not the rate); -1 when
-- the whole line fits in the free slots (the cap holds nobody back); turns; and ends: how many
-- ends of this turn come first, this one included (the rate spaces them).

local function cap_wait(running, position, length, max_active, now)
  if max_active <= 0 or position <= 0 then
    return -1, 0, 0
  end
  local count = redis.call('ZCARD', running)
  local free = max_active - count
  local needed = position - free
  if needed <= 0 then
    if length > free then
      return 0, 0, 0
    end
    return -1, 0, 0
  end
  local index = (needed - 1) % max_active
  local turns = math.floor((needed - 1) / max_active)
  if index >= count then
    return now, turns, index + 1
  end
  local member = redis.call('ZRANGE', running, index, index, 'WITHSCORES')
  return tonumber(member[2]), turns, index + 1
end

-- The room's limits for one waiting at a place of a line of length: total active users read as
-- cap_wait reads a queue's cap, on the room's users (sessions.lua), whose members are scored by
-- last activity and leave the same idle limit after it, the place scaled by the queue's share of
-- the room's places (share, in (0, 1]: its weight among the room's queues that are on, as they
-- share the places freed), so the third queue's first waits for the third end; and, when the room
-- limits new users per minute (rated), its bucket (bucket.lua), which a debt keeps empty for long.
-- Returns five numbers: cap_wait's three for the room (-1, 0, 0 without total active users), the
-- bucket's tokens in thousandths and its refill time (ms); 0, 0 without a rate or a bucket yet.
local function room_wait(users, budget, position, length, total, rated, now, share)
  local scale = 1 / math.min(1, math.max(share or 1, 0.001))
  local activity, turns, ends =
    cap_wait(users, math.ceil(position * scale), math.ceil(length * scale), total, now)
  local tokens, refill = 0, 0
  if rated then
    local b = redis.call('HMGET', budget, 'tokens', 'refill')
    if b[1] and b[2] then
      tokens, refill = math.floor(tonumber(b[1]) * 1000), tonumber(b[2])
    end
  end
  return activity, turns, ends, tokens, refill
end
