-- Reads the active-queues hash and tells the caller how the store it reads now relates to the one
-- it read last. The hash carries the store's own fields, all beginning with '.' (QueueKeys):
--   '.store', the store's incarnation: Redis's time in microseconds when a read found the hash
--   missing and began it. A store that kept its data (persistence, a synced replica promoted, a
--   failback to the same process) keeps it; one that came back empty begins a new one.
--   '.verdict', 'lost' or 'fresh', decided once per incarnation by the first caller that read
--   another one: a caller that read another server last (a restart without persistence, an empty
--   replica promoted) finds a loss; one that read this same server last finds the store emptied on
--   purpose (FLUSHALL), a fresh start. Every caller then follows the same verdict.
--   '.seen', Redis's time (ms) of a read, moved by the first read at least a second after the
--   last: a store brought back older (an earlier RDB or AOF, a replica promoted while behind) holds
--   an earlier one than a caller that read it before.
--   '.prev', the '.seen' before the last: a caller whose last read falls between the two read a
--   store this one is older than, even when a caller that read before the loss moved '.seen' first.
--   '.rollback', 'kept found': the '.seen' an older store held, and when a caller found it older,
--   so callers that read in the lost window learn it too, within RECOVERY_MS.
--   '.gen', the generation that every change moves forward (active_set.lua, deactivate.lua, the
--   write-backs of a recovery; generation.lua). A caller that sends the generation it read last gets the entries
--   only when it moved: a read that finds nothing changed costs the same however many queues are
--   on. A missing generation is '0'; beginning the hash starts one (generation.lua).
-- KEYS: 1 active queues hash
-- ARGV: 1 the incarnation the caller read last, '' for a caller that has read nothing yet;
--       2 the generation the caller read last, '' for a whole read; 3 the run id of the server the
--       caller read last; 4 the '.seen' the caller read last (ms, 0 for none)
-- Reply: {incarnation, verdict, generation, entries (1) or unchanged (0), run id, seen, field,
--        value, ...} without the store's own fields; no fields when unchanged. Verdict: 0 the
--        store the caller read last (or a first read); 1 it came back empty and the caller writes
--        back what it knew (reassert.lua, reborn.lua); 2 it came back older than the caller's last
--        read and the caller writes back the hash by generation (restore.lua) and lets those lost
--        rejoin; 3 a new store the caller takes as it is: a fresh start, or a loss found more than
--        RECOVERY_MS after the store began again (the others wrote back; this caller's memory is
--        older than what they wrote and what operators changed since).
-- Safe to repeat at any later moment: the incarnation and verdict are written only when missing,
-- and a repeat reports the same verdict within RECOVERY_MS (the write-backs write only what is
-- missing, or by generation); an older store is reported again only to a caller that read in the
-- lost window, and the caller keeps what the first reply told it.

--@include generation.lua

local RECOVERY_MS, HEARTBEAT_MS = 120000, 1000

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local run = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)')
local store = redis.call('HGET', KEYS[1], '.store')
if not store then
  store = time[1] .. string.format('%06d', tonumber(time[2]))
  redis.call('HSET', KEYS[1], '.store', store)
  start_generation(KEYS[1])
end
local generation = redis.call('HGET', KEYS[1], '.gen') or '0'
local seen = tonumber(redis.call('HGET', KEYS[1], '.seen') or 0)
local prev = tonumber(redis.call('HGET', KEYS[1], '.prev') or 0)
local read_seen = tonumber(ARGV[4]) or 0
local verdict = 0
if ARGV[1] ~= '' and ARGV[1] ~= store then
  local judged = redis.call('HGET', KEYS[1], '.verdict')
  if not judged then
    judged = 'fresh'
    if ARGV[3] ~= run then
      judged = 'lost'
    end
    redis.call('HSET', KEYS[1], '.verdict', judged)
  end
  -- A marker that is no number was written by an older version (a server's run id): the store
  -- is taken as just begun.
  local born = tonumber(store)
  verdict = 3
  if judged == 'lost' and (not born or now - math.floor(born / 1000) <= RECOVERY_MS) then
    verdict = 1
  end
elseif ARGV[1] == store then
  -- The store held '.prev' and then '.seen': a caller that read a time above the first and not
  -- one of them read a store this one is older than (when another caller moved '.seen' first).
  if read_seen > seen or (prev > 0 and read_seen > prev and read_seen < seen) then
    if read_seen > seen then
      prev = seen
    end
    redis.call('HSET', KEYS[1], '.rollback', prev .. ' ' .. now)
    verdict = 2
  else
    local rollback = redis.call('HGET', KEYS[1], '.rollback')
    if rollback then
      local kept, found = string.match(rollback, '^(%d+) (%d+)')
      if read_seen > tonumber(kept) and read_seen < tonumber(found)
          and now - tonumber(found) <= RECOVERY_MS then
        verdict = 2
      end
    end
  end
end
if verdict == 2 or now - seen >= HEARTBEAT_MS then
  if now > seen then
    redis.call('HSET', KEYS[1], '.prev', seen, '.seen', now)
    seen = now
  end
end
if verdict == 0 and ARGV[2] ~= '' and ARGV[2] == generation then
  return {store, verdict, generation, 0, run, seen}
end
local reply = {store, verdict, generation, 1, run, seen}
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  if string.sub(entries[i], 1, 1) ~= '.' then
    reply[#reply + 1] = entries[i]
    reply[#reply + 1] = entries[i + 1]
  end
end
return reply
