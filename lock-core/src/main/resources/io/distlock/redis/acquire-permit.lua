-- Takes one of a key's permits when fewer than the caller's limit are held, and hands out
-- the next fencing token, in one step.
--
-- KEYS[1]  the permits: the holders' owner tokens, scored by lease expiry (Redis ms)
-- KEYS[2]  the fencing counter, shared with the key's lock
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after its last use, in milliseconds
-- ARGV[4]  this caller's limit: how many holders the key may have, this one included
--
-- Returns {1, fencing token, clock} when a permit was taken (fencing.lua); {0, ms, 0,
-- holder} when the limit is reached or this owner already holds one: the time until the
-- earliest lease ends, and that holder's description (holder.lua).
local now, micros = server_time()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) or redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  local earliest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, math.max(0, tonumber(earliest[2]) - now), 0, holder_of(earliest[1])}
end
redis.call('ZADD', KEYS[1], string.format('%d', now + tonumber(ARGV[2])), ARGV[1])
redis.call('PEXPIREAT', KEYS[1], redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
local token, clock = fencing_token(KEYS[2], ARGV[3], '1', micros)
return {1, token, clock}
