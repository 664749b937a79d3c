-- Turns a queue off, optionally only when it was turned on for the given cause, so that the
-- worker's auto-deactivation never undoes an operator's manual activation. A change adds one to the
-- hash's generation (active_read.lua).
-- KEYS: 1 active queues hash
-- ARGV: 1 queue id (room:item), 2 required cause, or '' for any
-- Reply: 1 when the queue was active and is now off, 0 otherwise
-- Safe to repeat: a second call finds the queue off, and replies 0, as for a queue that was off
-- (the announcement of the change then comes from the first call, or not at all: mirrors read the
-- hash again within their refresh). One arriving after the queue was turned on
-- again turns it off only for the same cause: an operator's activation is never undone by the
-- worker's, and a queue traffic turned on again is turned on by the next activation check.

--@include generation.lua

local cause = redis.call('HGET', KEYS[1], ARGV[1])
if not cause or (ARGV[2] ~= '' and cause ~= ARGV[2]) then
  return 0
end
redis.call('HDEL', KEYS[1], ARGV[1])
move_generation(KEYS[1])
return 1
