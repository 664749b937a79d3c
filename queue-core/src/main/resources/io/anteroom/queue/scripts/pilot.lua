-- Reads what a room's auto-pilot decides on: its state, and every gateway's report of the origin in
-- each second of the window.
-- KEYS: 1 pilot, 2.. origin (the room's, one per second of the window)
-- ARGV: none
-- Reply: {share, at, reason, peak, hold-until, seen, high (each false when missing), report, ...}
-- Reads only: safe to repeat.

local reply = redis.call('HMGET', KEYS[1], 'share', 'at', 'reason', 'peak', 'hold-until', 'seen',
  'high')
for i = 2, #KEYS do
  for _, report in ipairs(redis.call('HVALS', KEYS[i])) do
    reply[#reply + 1] = report
  end
end
return reply
