-- Reference for enqueue: the two commands a queue needs at least, run as one script, so the cost
-- of the queue model can be told apart from the cost of running Lua by EVALSHA at all.
-- KEYS: 1 line (sorted set)
-- ARGV: 1 score, 2 member
-- Reply: the member's 0-based rank
redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[2])
return redis.call('ZRANK', KEYS[1], ARGV[2])
