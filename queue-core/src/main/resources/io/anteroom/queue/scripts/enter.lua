-- A visitor on an item whose queue is off, in a room with room-wide limits: takes one of the
-- room's places at once, or none. Passes given while a queue is off are otherwise counted after the
-- fact (register.lua, in batches); in a room with limits that would let newcomers past a room the
-- gateways do not yet know is full, so each one is counted before the pass is given, and so is each
-- renewal of such a pass (a holder's activity keeps them an active user).
-- The room counts people, not items (sessions.lua): a visitor who is an active user of the room
-- already (in another of its items, or this one) enters without a new place or a token, whatever
-- the room's limits. Anyone else needs the room not marked full (room_admit.lua), its users below
-- total active users and a token in its bucket, or waits.
-- Users idle past the room's idle limit leave the room's users first, as in room_admit.lua (at most
-- a thousand a call, trim.lua: those left count until later calls, so the room seems fuller). A
-- session of the item idle past the item's idle limit has ended, though nobody expires the running
-- set of a queue that is off: it is ended here as expire.lua would (finished, counted expired, its
-- admission by the line gone with it), so a pass kept past its end never renews it. Like
-- register.lua, the running set of a queue that is off (and admitted with it) is given a time to
-- live that each entry extends, and one who had finished moves back to running, with no admission
-- by the line. A visitor new to the room counts in its measured new users (started.lua).
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's users), 7 budget
--       (the room's), 8 admitted (when the line let in those running)
-- ARGV: 1 now (ms), 2 time to live of the running set (ms), 3 the room's new users per second (0:
--       not limited), 4 the room's burst (tokens), 5 total active users (0: not limited), 6 the
--       room's idle limit of a session (ms), 7 visitor, 8 the item's idle limit of a session (ms),
--       9 session scope ('item' or 'room', sessions.lua session_alive)
-- Reply: 1 when the visitor may enter (a session of the item, and an active user of the room), 0
--   when the room is at its limits and nothing changed but the dropping of idle users and the end
--   of the visitor's idle session, 2 when the visitor's session of the item ended at or after now
--   (this call was sent before the release, or is a repeat of it): nothing changed
-- Safe to repeat at any later moment: a repeat finds the visitor running and only renews the
-- session, or finds it ended since the call was sent (released, ended idle) and enters nobody, as
-- register.lua; a refusal changes nothing the next call does not find the same.

--@include bucket.lua
--@include sessions.lua
--@include started.lua
--@include trim.lua
--@include clock.lua

local now = call_now(ARGV[1])
local room_rate, room_burst = tonumber(ARGV[3]), tonumber(ARGV[4])
local total, room_idle, visitor = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]

-- In, as a session of the item from now; new_user when the visitor was no active user of the room.
local function entered(new_user)
  redis.call('ZREM', KEYS[3], visitor)
  redis.call('ZADD', KEYS[2], 'GT', now, visitor)
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]))
  redis.call('PEXPIRE', KEYS[8], tonumber(ARGV[2]))
  users_add(KEYS[6], {now, visitor})
  if new_user then
    started_count(KEYS[7], now, 1)
  end
  return 1
end

local ended = tonumber(redis.call('ZSCORE', KEYS[3], visitor))
if ended and ended >= now then
  return 2
end
trim_below(KEYS[6], now - room_idle)
local running = redis.call('ZSCORE', KEYS[2], visitor)
if session_alive(running, KEYS[6], visitor, now, tonumber(ARGV[8]), ARGV[9]) then
  return entered(false)
end
if running then
  redis.call('ZREM', KEYS[2], visitor)
  redis.call('ZREM', KEYS[8], visitor)
  redis.call('ZADD', KEYS[3], now, visitor)
  redis.call('HINCRBY', KEYS[5], 'expired', 1)
end
-- One of the room's users already, unless idle past the room's limit (the trim above removes a
-- thousand at most a call: one it has not reached yet is not inside).
local user = redis.call('ZSCORE', KEYS[6], visitor)
if user and tonumber(user) > now - room_idle then
  return entered(false)
end
if redis.call('HGET', KEYS[7], 'full') == '1' then
  return 0
end
if total > 0 and redis.call('ZCARD', KEYS[6]) >= total then
  return 0
end
if room_rate > 0 then
  local tokens, refill = bucket_tokens(KEYS[7], now, room_rate, room_burst)
  if tokens < 1 then
    return 0
  end
  bucket_store(KEYS[7], tokens - 1, refill)
end
return entered(true)
