-- Shared by status.lua, enqueue.lua and join.lua (reads only): which running session has to end
-- before the visitor at a place in line can be admitted, when the cap on running sessions holds
-- the place back. Running is scored by last activity and every session ends the same idle limit
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
