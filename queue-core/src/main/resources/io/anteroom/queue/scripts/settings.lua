-- Changes a room's live overrides in one step: removes some fields and sets others, so a change
-- that fails leaves the overrides as they were and readers never see half of it. Moves the hash's
-- generation, field '.gen' (generation.lua), so a write-back of settings read before never undoes
-- the change (restore.lua, after the store came back older).
-- KEYS: 1 the room's settings hash
-- ARGV: 1 number of fields to remove (r), 2..r+1 fields to remove, then field, value pairs to set
-- Reply: 1
-- Safe to repeat: the result is the same. A repeat arriving after another change of the same
-- fields undoes it, as the two changes arriving in that order would: the last write wins.

--@include generation.lua

local removing = tonumber(ARGV[1])
if removing > 0 then
  redis.call('HDEL', KEYS[1], unpack(ARGV, 2, removing + 1))
end
if #ARGV > removing + 1 then
  redis.call('HSET', KEYS[1], unpack(ARGV, removing + 2, #ARGV))
end
move_generation(KEYS[1])
return 1
