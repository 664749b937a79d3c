-- Records what one gateway saw of a room's origin in one second (the answers to pass holders), for
-- the room's auto-pilot. The key holds the second's reports of every gateway and expires soon after
-- the workers have read it.
-- KEYS: 1 origin (the room's, of that second)
-- ARGV: 1 gateway id, 2 figures (OriginFigures#encode), 3 time to live (ms)
-- Reply: 1
-- Safe to repeat at any later moment: the gateway's report of that second is written again, the
-- same; a report of a second already expired comes back for its time to live, read by no worker
-- (they read the last few seconds only).

redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
