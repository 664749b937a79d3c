-- Reads the active-queues hash and tells whether the store came back empty since the caller's last
-- read. The hash carries a marker, field '.store', whose value is the run id of the Redis server
-- that wrote it; it is written whenever missing. The caller sends the run id this script gave it
-- last time. The store lost its data when the marker had to be written (or was written since) by a
-- server other than the one the caller read last: a restart without persistence, or a failover to a
-- replica that had not received the data. A server that kept its data (persistence, a synced
-- replica) still holds the old marker; a store emptied on purpose on the same server (FLUSHALL)
-- gets a marker with the run id the caller saw, so it is taken as a fresh start, not a loss.
-- The hash also carries a generation, field '.gen', that every change adds one to (active_set.lua,
-- deactivate.lua, and the write-back after a loss). A caller that sends the generation it read last
-- gets the entries only when the generation moved: a read that finds nothing changed costs the
-- same however many queues are on, so made-up item ids that turn queues on do not make every
-- gateway's and worker's periodic read dearer. A missing generation is '0'; writing the marker
-- starts one where there is none (generation.lua), so a hash emptied and begun again never repeats
-- a generation.
-- KEYS: 1 active queues hash
-- ARGV: 1 the run id the caller read last, '' for a caller that has read nothing yet;
--       2 the generation the caller read last, '' for a whole read
-- Reply: {run id, lost (1 or 0), generation, entries (1) or unchanged (0), field, value, ...}
--        without the marker and the generation; no fields when unchanged
-- Safe to repeat at any later moment: the marker is written only when missing, and a repeat finds
-- it written with this server's run id, so it reports the same loss again; the caller's re-assert
-- (reassert.lua) writes only fields that are missing.

--@include generation.lua

local run = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)')
local marker = redis.call('HGET', KEYS[1], '.store')
if not marker then
  redis.call('HSET', KEYS[1], '.store', run)
  start_generation(KEYS[1])
  marker = run
end
local lost = 0
if ARGV[1] ~= '' and ARGV[1] ~= run and marker == run then
  lost = 1
end
local generation = redis.call('HGET', KEYS[1], '.gen') or '0'
if lost == 0 and ARGV[2] ~= '' and ARGV[2] == generation then
  return {run, lost, generation, 0}
end
local reply = {run, lost, generation, 1}
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  if entries[i] ~= '.store' and entries[i] ~= '.gen' then
    reply[#reply + 1] = entries[i]
    reply[#reply + 1] = entries[i + 1]
  end
end
return reply
