-- Extends one lease only if the given owner still holds it: the lock (compare-and-pexpire)
-- or, with ARGV[3] 'read', a read hold of it that has not expired.
--
-- KEYS[1]  the lock key or, with ARGV[3] 'read', the read holds (as in acquire-read.lua)
-- ARGV[1]  the owner token of the acquisition to renew
-- ARGV[2]  the new lease time in milliseconds, from now
-- ARGV[3]  'read' to renew a read hold; absent to renew the lock
--
-- Returns 1 when renewed, 0 when the lease is not held by this owner (it was lost).
--
-- pcall: a key overwritten with another type is a lost lock, not an error.
if ARGV[3] ~= 'read' then
  if redis.pcall('GET', KEYS[1]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return 1
  end
  return 0
end
local expiry = redis.pcall('ZSCORE', KEYS[1], ARGV[1])
if type(expiry) ~= 'string' then
  return 0
end
local now = server_time()
if tonumber(expiry) <= now then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
-- The sorted set lives as long as its latest lease.
if redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIREAT', KEYS[1], now + ttl)
end
return 1
