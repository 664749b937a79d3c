-- Shared by the scripts that change the active-queues hash (active_set.lua, deactivate.lua) or a
-- room's settings (settings.lua), and by active_read.lua when it finds the hash new: moves the
-- hash's generation, field '.gen'. A hash
-- that has none (new, or emptied by a restart, FLUSHALL or a deletion) starts from Redis's clock in
-- microseconds, not from 1: a reader still holding a generation of the hash before cannot find it
-- again by chance and take the new entries for the ones it read (the old generation plus the
-- changes since is always below the microseconds that have passed).

-- Starts the generation where there is none; true when it did.
local function start_generation(key)
  if redis.call('HEXISTS', key, '.gen') == 1 then
    return false
  end
  local time = redis.call('TIME')
  redis.call('HSET', key, '.gen', time[1] .. string.format('%06d', tonumber(time[2])))
  return true
end

-- Moves the generation to Redis's clock in microseconds, or one past it when that is not ahead:
-- a change made after a reader's read always has a higher generation than the one it read, so a
-- write-back by generation (restore.lua) never undoes it, even on a store that came back older.
local function move_generation(key)
  if not start_generation(key) then
    local time = redis.call('TIME')
    local at = tonumber(time[1] .. string.format('%06d', tonumber(time[2])))
    local generation = tonumber(redis.call('HGET', key, '.gen')) or 0
    redis.call('HSET', key, '.gen', string.format('%d', math.max(generation + 1, at)))
  end
end
