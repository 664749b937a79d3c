-- Finishes, as abandoned, waiting visitors who have not polled within the abandon timeout,
-- wherever they stand. For a line that nobody is admitted from (paused, or closed keeping its
-- line), where admission would otherwise never reach them; a moving line drops them at its head.
-- Seen also keeps the entries of visitors admitted lately (admit.lua trims them in bulk), so only
-- those still in line are finished; the stale entries looked at are removed either way. One in line
-- whose stale entry an admission call already trimmed is not found here; admission finishes it at
-- the head once the line moves again.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state, 6 sessions, 7 budget (the room's;
--       unused here), 8 admitted (unused here)
-- ARGV: 1 now (ms), 2 abandon after (ms), 3 limit per call
-- Reply: number of visitors finished as abandoned
-- Safe to repeat at any later moment: a second call finds them gone; one with an older now finishes
-- only visitors whose last poll is older still (seen only moves forward).

--@include clock.lua

local now = call_now(ARGV[1])
local stale = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. (now - tonumber(ARGV[2])),
  'LIMIT', 0, tonumber(ARGV[3]))
if #stale == 0 then
  return 0
end
redis.call('ZREM', KEYS[4], unpack(stale))
local places = redis.call('ZMSCORE', KEYS[1], unpack(stale))
local gone, ended = {}, {}
for i, visitor in ipairs(stale) do
  if places[i] then
    gone[#gone + 1] = visitor
    ended[#ended + 1] = now
    ended[#ended + 1] = visitor
  end
end
if #gone == 0 then
  return 0
end
redis.call('ZREM', KEYS[1], unpack(gone))
redis.call('ZADD', KEYS[3], unpack(ended))
redis.call('HINCRBY', KEYS[5], 'abandoned', #gone)
return #gone
