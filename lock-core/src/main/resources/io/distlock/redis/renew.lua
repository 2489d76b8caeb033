-- Extends the lease only if the given owner holds the lock (compare-and-pexpire), or has
-- a read hold of it that has not expired. Never creates a key or a hold, so a renewal
-- that arrives after the release or the expiry cannot bring it back.
--
-- KEYS[1]  the lock key
-- KEYS[2]  the read holds: a sorted set of the readers' owner tokens, scored by the Redis
--          time in milliseconds at which each read lease expires; in the same hash slot
-- ARGV[1]  the owner token of the acquisition to renew
-- ARGV[2]  the new lease time in milliseconds, from now
--
-- Returns 1 when renewed, 0 when the lock is not held by this owner (it was lost).
--
-- The lock key is looked at first: renewing a write lease costs what it did before read
-- holds existed. The sorted set lives as long as its latest lease.
--
-- pcall: a key overwritten with another type is a lost lock, not an error.
if redis.pcall('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
local expiry = redis.pcall('ZSCORE', KEYS[2], ARGV[1])
if type(expiry) ~= 'string' then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if tonumber(expiry) <= now then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
if redis.call('PTTL', KEYS[2]) < ttl then
  redis.call('PEXPIREAT', KEYS[2], now + ttl)
end
return 1
