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
-- ARGV[4]  PUBLISH, or SPUBLISH for sharded channels (Redis Cluster): see publish.lua
--
-- Returns 1 when released, 0 when this owner had no read hold, or only an expired one.
--
-- Uses server_time (time.lua) and publish (publish.lua), which LockScripts puts in front
-- of this script.
--
-- Publishes, as release.lua does, the owner token of the first fair waiter when fair
-- waiters queue for the lock, otherwise the resource name.
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expiry then
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
local now = server_time()
if tonumber(expiry) <= now then
  return 0
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('EXISTS', KEYS[1]) == 0 then
  local first = KEYS[2] and redis.call('LINDEX', KEYS[2], 0)
  if first then
    publish(ARGV[4], ARGV[2], first)
  else
    publish(ARGV[4], ARGV[2], ARGV[3])
  end
end
return 1
