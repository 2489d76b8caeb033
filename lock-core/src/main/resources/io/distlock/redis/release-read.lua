-- Releases a read hold only if the given owner still has it, and tells the next waiter
-- when the last reader left: only a writer waits for readers.
--
-- KEYS[1]  the read holds: a sorted set of the readers' owner tokens, scored by the Redis
--          time in milliseconds at which each read lease expires
-- KEYS[2]  the queue of fair waiters (a list of owner tokens), in the same hash slot;
--          absent while the slot migrates between Redis Cluster nodes, where a script
--          with several keys is refused (TRYAGAIN) while any of them is missing, and the
--          queue usually is: the resource name is published then
-- ARGV[1]  the owner token of the read hold to release
-- ARGV[2]  the release channel of this lock
-- ARGV[3]  the lock's resource name
-- ARGV[4]  PUBLISH, or SPUBLISH to publish on the sharded channel (Redis Cluster); Redis
--          before 7 has no sharded channels and always gets PUBLISH
--
-- Publishes, as release.lua does, the owner token of the first fair waiter when fair
-- waiters queue for the lock, otherwise the resource name.
--
-- Returns 1 when released, 0 when this owner had no read hold, or only an expired one.
--
-- pcall: a notification that cannot be published must not fail a release that has
-- happened; waiters then notice the free lock on their backoff.
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expiry then
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if tonumber(expiry) <= now then
  return 0
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('EXISTS', KEYS[1]) == 0 then
  local publish = (ARGV[4] == 'SPUBLISH' and redis.REDIS_VERSION_NUM) and 'SPUBLISH' or 'PUBLISH'
  local first = KEYS[2] and redis.call('LINDEX', KEYS[2], 0)
  if first then
    redis.pcall(publish, ARGV[2], first)
  else
    redis.pcall(publish, ARGV[2], ARGV[3])
  end
end
return 1
