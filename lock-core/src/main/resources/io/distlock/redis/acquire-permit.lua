-- Takes one of a key's permits when fewer than the caller's limit are held, and hands out
-- the next fencing token, in one step.
--
-- KEYS[1]  the permits: a sorted set of the holders' owner tokens, scored by the Redis
--          time in milliseconds at which each holder's lease expires
-- KEYS[2]  the fencing counter, in the same hash slot; shared with the exclusive lock
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after its last use, in milliseconds
-- ARGV[4]  how many holders the key may have at once, this one included (at least 1); the
--          caller's own limit, whatever limit other callers used
--
-- Returns {1, fencing token, clock} when a permit was taken (fencing tokens from
-- fencing.lua, as in acquire.lua), or {0, milliseconds until the earliest lease expires,
-- 0, holder} when the limit is reached or this owner token already holds a permit, with
-- the description of the holder whose lease ends first (holder.lua; nil when it has
-- none).
--
-- Uses server_time (time.lua), fencing_token (fencing.lua) and holder_of (holder.lua),
-- which LockScripts puts in front of this script.
--
-- Each permit is a lease of its own: a member of a sorted set scored by when it expires,
-- so a holder that stops renewing loses its permit. Expired leases are dropped first, so
-- they never count. The set expires with its longest lease, so nothing is left behind
-- when every holder is gone.
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
