-- Records passes a gateway issued while the queue was off, so the cap counts them if the queue
-- turns on. They name no admission by the line: nothing is written to admitted, whose entries of
-- those the line let in before stay. While the queue is off nobody expires its sessions, so the
-- running set (and admitted with it) is given a time to live that each registration extends; the
-- worker's expiry removes it once the queue is on.
-- A visitor in line is left there: they are counted once, and the line admits them in turn. One
-- who finished before now got the pass since and moves back to running.
-- Each visitor registered is an active user of the room (sessions.lua), also one renewing a pass
-- (the activity keeps them counted). One new to the room's users counts in its measured new users
-- (started.lua) and, when the room limits new users per minute, takes a token from the room's
-- bucket (bucket.lua), which may go below zero: the room's queues then admit nobody until it has
-- refilled, so passes given while a queue is off count toward the room's new users too.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions (the room's), 7 budget (the
--       room's), 8 admitted (when the line let in those running)
-- ARGV: 1 now (ms), 2 time to live of the running set (ms), 3 the room's new users per second (0
--       when not limited, and for passes of a queue in shadow mode: a dry run spends nothing of
--       the room's), 4 the room's burst (tokens), 5.. visitors
-- Reply: number of visitors new to running
-- Safe to repeat at any later moment: activity times only move forward, and a visitor who finished
-- at or after now (the session ended after this call was sent) stays finished, as one who joined
-- the line since stays there. A repeat after the queue turned on gives the running set a time to
-- live of twice the session again, which the next expiry call removes.

--@include bucket.lua
--@include sessions.lua
--@include started.lua
--@include clock.lua

local now = call_now(ARGV[1])
local room_rate, room_burst = tonumber(ARGV[3]), tonumber(ARGV[4])
local added, new_users = 0, 0
-- In pieces under Lua's limit on unpacked values (8000): a flush may carry many passes.
for first = 5, #ARGV, 2000 do
  local last = math.min(first + 1999, #ARGV)
  local line = redis.call('ZMSCORE', KEYS[1], unpack(ARGV, first, last))
  local left = redis.call('ZMSCORE', KEYS[3], unpack(ARGV, first, last))
  local entries, back = {}, {}
  for i = 1, last - first + 1 do
    local visitor, finished_at = ARGV[first + i - 1], tonumber(left[i])
    if not line[i] and not (finished_at and finished_at >= now) then
      entries[#entries + 1] = now
      entries[#entries + 1] = visitor
      if finished_at then
        back[#back + 1] = visitor
      end
    end
  end
  if #back > 0 then
    redis.call('ZREM', KEYS[3], unpack(back))
  end
  if #entries > 0 then
    added = added + redis.call('ZADD', KEYS[2], 'GT', unpack(entries))
    new_users = new_users + users_add(KEYS[6], entries)
  end
end
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[8], tonumber(ARGV[2]))
if room_rate > 0 and new_users > 0 then
  local tokens, refill = bucket_tokens(KEYS[7], now, room_rate, room_burst)
  bucket_store(KEYS[7], tokens - new_users, refill)
end
started_count(KEYS[7], now, new_users)
return added
