-- Records activity of an admitted visitor, keeping the session alive.
-- KEYS: 1 waiting, 2 running, 3 finished, 4 seen, 5 state
-- ARGV: 1 visitor, 2 now (ms)
-- Reply: 1 when the visitor is running, 0 otherwise
-- Safe to repeat: activity time only moves forward.

if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZADD', KEYS[2], 'XX', 'GT', tonumber(ARGV[2]), ARGV[1])
  return 1
end
return 0
