-- Finishes, as abandoned, waiting visitors who have not polled within the abandon timeout,
-- wherever they stand. For a line that nobody is admitted from (paused, or closed keeping its
-- line), where admission would otherwise never reach them; a moving line drops them at its head.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state
-- ARGV: 1 now (ms), 2 abandon after (ms), 3 limit per call
-- Reply: number of visitors finished as abandoned
-- Safe to repeat: a second call finds them gone.

local now = tonumber(ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. (now - tonumber(ARGV[2])),
  'LIMIT', 0, tonumber(ARGV[3]))
if #gone == 0 then
  return 0
end
local ended = {}
for _, visitor in ipairs(gone) do
  ended[#ended + 1] = now
  ended[#ended + 1] = visitor
end
redis.call('ZREM', KEYS[1], unpack(gone))
redis.call('ZREM', KEYS[4], unpack(gone))
redis.call('ZADD', KEYS[3], unpack(ended))
redis.call('HINCRBY', KEYS[5], 'abandoned', #gone)
return #gone
