-- Writes one field of the active-queues hash (a queue on and its cause, or a room at its limits)
-- and adds one to the hash's generation when the hash changed, so that readers sending the
-- generation they read last (active_read.lua) see the change.
-- KEYS: 1 active queues hash
-- ARGV: 1 field (a queue id room:item, or a room), 2 value ('' removes the field),
--       3 'nx' to write only a field that is missing, '' to write it whatever it holds
-- Reply: 1 when the field was added or removed, 0 otherwise (also when a value was replaced, as
--        HSET answers; the generation still moves then)
-- Safe to repeat: a repeat finds the field as the first call left it, changes nothing, and replies
-- 0 (no announcement: mirrors read the hash again within their refresh).

--@include generation.lua

local old = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] == '' then
  if not old then
    return 0
  end
  redis.call('HDEL', KEYS[1], ARGV[1])
  move_generation(KEYS[1])
  return 1
end
if old and (ARGV[3] == 'nx' or old == ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
move_generation(KEYS[1])
if old then
  return 0
end
return 1
