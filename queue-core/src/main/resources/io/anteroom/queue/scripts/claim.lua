-- Records that a visitor id joins the line of one item of a room, unless it already waits in as
-- many other items as the cap allows. Entries older than the keep time are dropped; the caller
-- checks the items listed in a refusal against their lines and gives up those it no longer waits in.
-- A visitor's first place is taken under an id minted for that request, and not recorded (nothing
-- is over a cap yet, and a key per request without cookies would fill Redis): the item of the
-- ticket the visitor holds is counted as joined when it is missing, as of the ticket's time (no
-- older than the keep time, so it is not dropped at once).
-- KEYS: 1 places of the visitor id in the room
-- ARGV: 1 now (ms), 2 item, 3 cap, 4 keep (ms), 5 item of a ticket the visitor holds, or '',
--       6 when that ticket was issued (ms)
-- Reply: {1} when recorded (or already there); {0, item, joined-ms, ...} when refused, with the
--   items counted and when each was last claimed
-- Safe to repeat at any later moment: a second call finds the item there and only moves its time
-- forward. One that comes after the caller gave the item up (no longer in its line) records it
-- again with the old time, so it is counted until the next refusal checks it against the line.

--@include clock.lua

local now, item, cap, keep = call_now(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - keep))
if ARGV[5] ~= '' then
  if redis.call('ZADD', KEYS[1], 'NX', math.max(tonumber(ARGV[6]), now - keep), ARGV[5]) == 1 then
    redis.call('PEXPIRE', KEYS[1], keep)
  end
end
if not redis.call('ZSCORE', KEYS[1], item) and redis.call('ZCARD', KEYS[1]) >= cap then
  local refused = {0}
  for _, value in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')) do
    refused[#refused + 1] = value
  end
  return refused
end
redis.call('ZADD', KEYS[1], 'GT', now, item)
redis.call('PEXPIRE', KEYS[1], keep)
return {1}
