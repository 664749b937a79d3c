-- A visitor on an item whose queue is off, in a room with room-wide limits: takes one of the
-- room's places at once, or none. Passes given while a queue is off are otherwise counted after the
-- fact (register.lua, in batches); in a room with limits that would let newcomers past a room the
-- gateways do not yet know is full, so each one is counted before the pass is given: the room not
-- marked full (room_admit.lua), its sessions below total active users and a token in its bucket,
-- or the visitor waits.
-- Sessions idle past the room's idle limit leave the room's sessions first, as in room_admit.lua.
-- A visitor already running in the item keeps the session (renewed, no token taken). Like
-- register.lua, the running set of a queue that is off is given a time to live that each entry
-- extends, and one who had finished moves back to running. A new session counts in the room's
-- measured new users (started.lua); a renewed one does not.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget (the
--       room's)
-- ARGV: 1 now (ms), 2 time to live of the running set (ms), 3 the room's new users per second (0:
--       not limited), 4 the room's burst (tokens), 5 total active users (0: not limited), 6 idle
--       limit of a session (ms), 7 visitor
-- Reply: 1 when the visitor may enter (a session of the item and of the room), 0 when the room is at
--   its limits and nothing changed but the dropping of idle sessions
-- Safe to repeat at any later moment: a repeat finds the visitor running and only renews the
-- session; a refusal changes nothing the next call does not find the same.

--@include bucket.lua
--@include sessions.lua
--@include started.lua

local now = tonumber(ARGV[1])
local room_rate, room_burst = tonumber(ARGV[3]), tonumber(ARGV[4])
local total, idle_limit, visitor = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local item = session_item(KEYS[2])

redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now - idle_limit)
if redis.call('ZSCORE', KEYS[2], visitor) then
  redis.call('ZADD', KEYS[2], 'GT', now, visitor)
  sessions_add(KEYS[6], item, {now, visitor}, 'GT')
  return 1
end
if redis.call('HGET', KEYS[7], 'full') == '1' then
  return 0
end
if total > 0 and redis.call('ZCARD', KEYS[6]) >= total then
  return 0
end
local tokens, refill
if room_rate > 0 then
  tokens, refill = bucket_tokens(KEYS[7], now, room_rate, room_burst)
  if tokens < 1 then
    return 0
  end
  bucket_store(KEYS[7], tokens - 1, refill)
end
redis.call('ZREM', KEYS[3], visitor)
redis.call('ZADD', KEYS[2], now, visitor)
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]))
sessions_add(KEYS[6], item, {now, visitor}, '')
started_count(KEYS[7], now, 1)
return 1
