-- Admits across the active queues of a room that has room-wide limits: new users per minute (a
-- token bucket in the room's budget, bucket.lua) and total active users (the room's users,
-- sessions.lua), each queue also within its own admit-per-second and max-active. The room counts
-- people: one admitted who is an active user of the room already (in another of its items) takes
-- neither a token of the room's bucket nor one of its places, only the queue's own. So, before the
-- room's places are shared, each line's head is let in as far as it holds such users (and those
-- found abandoned on the way), its order kept: in a full room they go on, newcomers wait.
-- The room's admissions are shared among the queues with people waiting in proportion to their
-- weights by stride scheduling: each queue keeps a pass that grows by 1 / weight per admission,
-- and each place goes to the queue with the lowest pass. So no queue with people waiting starves,
-- and a share a queue cannot use (its own limits, or nobody left in line) goes to the others in
-- the same call. A queue starts from the room's pass (the lowest pass of the queues left waiting),
-- so one that had nobody waiting cannot have saved up a share meanwhile.
-- First, users idle for the room's idle limit leave the room's users: the room's own rule, whatever
-- each item's session length (no queue's may outlast the room's), at most a thousand a call
-- (trim.lua; those left count until later calls).
-- A call names every queue of the room that admits ('whole'), or, for a room with many, a window
-- of them that the caller chose (the worker: those with people waiting and the lowest passes, a
-- few at a time, so that one call's work is bounded whatever the number of queues on). A window
-- sets no room pass of its own (it does not see the other queues'): the caller gives the lowest
-- pass among all the queues with people waiting, which the room's pass is raised to.
-- KEYS: 1 budget, 2 sessions, then six per queue: waiting, running, finished, seen, state, admitted
--       (when the line let in those running, admit_head.lua)
-- ARGV: 1 now (ms), 2 new users per second (0: not limited), 3 burst (tokens), 4 total active
--       users (0: not limited), 5 idle limit of a session (ms), 6 batch limit (admissions in this
--       call, all queues together), 7 'whole', or the room's pass as the caller knows it for a
--       window, then five per queue in the order of KEYS: admit per second, burst (tokens), max
--       active, weight (above 0), abandon after (ms)
-- Reply: {active users after the call, admitted, full, then five per queue: admitted,
--   abandoned, waiting, running, pass (millionths), then the room's measured new users per 1000
--   minutes (started.lua, as of now; 0 until known)}; full 1 while the room is at its limits: set once its users
--   reach total active users or its bucket has less than one token left, cleared only once both
--   have room again (users under nine tenths of total active users, half the bucket refilled),
--   kept in the budget's field full meanwhile. Gateways make every newcomer of a full room wait.
-- Safe to repeat at any later moment, as admit.lua: a repeated call spends only the tokens left in
-- the room's bucket and the queues' (refill times never move back) and finds the room's users
-- as they are, so the rate and both caps hold; it takes only from the heads of the lines, so
-- nobody is admitted twice.

--@include bucket.lua
--@include rate.lua
--@include sessions.lua
--@include admit_head.lua
--@include rejoin.lua
--@include started.lua
--@include trim.lua
--@include clock.lua

local now = call_now(ARGV[1])
local room_rate, room_burst = tonumber(ARGV[2]), tonumber(ARGV[3])
local total, idle_limit, batch = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local whole = ARGV[7] == 'whole'
local count = (#KEYS - 2) / 6

trim_below(KEYS[2], now - idle_limit)
local active = redis.call('ZCARD', KEYS[2])

-- Admits from the head of a line those already active in the room, before the room's places are
-- shared: they take none of its places or tokens, only their queue's. Visitors not seen since
-- oldest are finished as abandoned on the way, as in admit_head.lua; the first who is neither stops
-- it, so the line keeps its order. n: the most to look at. Returns admitted, abandoned.
local function admit_insiders(k, n, now_text, oldest)
  local members = redis.call('ZRANGE', k.waiting, 0, n - 1)
  if #members == 0 then
    return 0, 0
  end
  local seen = redis.call('ZMSCORE', k.seen, unpack(members))
  local inside = redis.call('ZMSCORE', KEYS[2], unpack(members))
  local enter, leave, taken = {}, {}, 0
  for i = 1, #members do
    local last = tonumber(seen[i])
    local target
    if not (last and last >= oldest) then
      target = leave
    elseif inside[i] and tonumber(inside[i]) > now - idle_limit then
      target = enter
    else
      break
    end
    target[#target + 1] = now_text
    target[#target + 1] = members[i]
    taken = i
  end
  if taken == 0 then
    return 0, 0
  end
  redis.call('ZREMRANGEBYRANK', k.waiting, 0, taken - 1)
  if #enter > 0 then
    zadd_all(k.running, enter)
    zadd_all(k.admitted, enter)
    users_add(KEYS[2], enter)
  end
  if #leave > 0 then
    zadd_all(k.finished, leave)
  end
  return #enter / 2, #leave / 2
end

local available = batch
local room_tokens, room_refill
if room_rate > 0 then
  room_tokens, room_refill = bucket_tokens(KEYS[1], now, room_rate, room_burst)
  available = math.min(available, math.floor(room_tokens))
end
if total > 0 then
  available = math.min(available, total - active)
end

local room_pass = tonumber(redis.call('HGET', KEYS[1], 'pass') or 0)
local stored_pass = room_pass
if not whole then
  room_pass = math.max(room_pass, tonumber(ARGV[7]))
end
-- What is left of the call's batch once those already inside are let in.
local batch_left = batch
local queues = {}
for q = 1, count do
  local k, a = 2 + (q - 1) * 6, 7 + (q - 1) * 5
  local s = {
    line = {waiting = KEYS[k + 1], running = KEYS[k + 2], finished = KEYS[k + 3],
      seen = KEYS[k + 4], admitted = KEYS[k + 6]},
    state = KEYS[k + 5], weight = tonumber(ARGV[a + 4]), oldest = now - tonumber(ARGV[a + 5]),
    share = 0
  }
  s.tokens, s.refill = bucket_tokens(s.state, now, tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]))
  s.running = redis.call('ZCARD', s.line.running)
  local own = math.min(math.floor(s.tokens), tonumber(ARGV[a + 3]) - s.running)
  s.demand = rejoin_limit(s.state, s.line.waiting, now,
    math.max(0, math.min(own, redis.call('ZCARD', s.line.waiting))))
  s.pass = math.max(tonumber(redis.call('HGET', s.state, 'pass') or 0), room_pass)
  s.start = s.pass
  s.insiders, s.left = 0, 0
  if s.demand > 0 and batch_left > 0 then
    s.insiders, s.left =
      admit_insiders(s.line, math.min(s.demand, batch_left), now, s.oldest)
    batch_left = batch_left - s.insiders - s.left
    s.demand = math.max(0, s.demand - s.insiders - s.left)
  end
  queues[q] = s
end
available = math.min(available, batch_left)

-- Each place to the lowest pass among the queues that can still take one.
for _ = 1, math.max(available, 0) do
  local best
  for q = 1, count do
    local s = queues[q]
    if s.share < s.demand and (not best or s.pass < best.pass) then
      best = s
    end
  end
  if not best then
    break
  end
  best.share = best.share + 1
  best.pass = best.pass + 1 / best.weight
end

local reply = {0, 0, 0}
local admitted_total, new_total, next_pass = 0, 0, nil
for q = 1, count do
  local s = queues[q]
  local shared, abandoned, new_users = 0, 0, 0
  if s.share > 0 then
    shared, abandoned, new_users = admit_head(s.line, KEYS[2], s.share, now, s.oldest, batch)
  end
  local admitted = s.insiders + shared
  abandoned = abandoned + s.left
  abandoned = abandoned + admit_settle(s.line, s.state, s.oldest, batch, admitted, abandoned, now)
  bucket_store(s.state, s.tokens - admitted, s.refill)
  -- The pass counts the room's places used: neither a place found abandoned on the way, nor one
  -- already inside the room let in before the sharing.
  local pass = s.start + shared / s.weight
  redis.call('HSET', s.state, 'pass', string.format('%.6f', pass))
  local waiting = redis.call('ZCARD', s.line.waiting)
  rate_sample(s.state, now, admitted, waiting)
  if waiting > 0 and s.demand > 0 and (not next_pass or pass < next_pass) then
    next_pass = pass
  end
  admitted_total = admitted_total + admitted
  new_total = new_total + new_users
  reply[#reply + 1] = admitted
  reply[#reply + 1] = abandoned
  reply[#reply + 1] = waiting
  reply[#reply + 1] = s.running + admitted
  reply[#reply + 1] = math.floor(pass * 1000000)
end

local tokens_left
if room_rate > 0 then
  tokens_left = room_tokens - new_total
  bucket_store(KEYS[1], tokens_left, room_refill)
end
local active_after = active + new_total
local at_limits = (total > 0 and active_after >= total) or (room_rate > 0 and tokens_left < 1)
local roomy = (total == 0 or active_after < 0.9 * total)
  and (room_rate == 0 or tokens_left >= room_burst / 2)
local was_full = redis.call('HGET', KEYS[1], 'full') == '1'
local full = was_full
if at_limits then
  full = true
elseif roomy then
  full = false
end
if full then
  reply[3] = 1
end
-- Written only on a change: a room without limits keeps in its budget no more than its count of
-- the sessions it starts.
if full ~= was_full then
  redis.call('HSET', KEYS[1], 'full', reply[3])
end
if whole and next_pass and next_pass > room_pass then
  room_pass = next_pass
end
if room_pass > stored_pass then
  redis.call('HSET', KEYS[1], 'pass', string.format('%.6f', room_pass))
end
started_count(KEYS[1], now, new_total)
reply[1] = active_after
reply[2] = admitted_total
reply[#reply + 1] = started_read(KEYS[1], now)
return reply
