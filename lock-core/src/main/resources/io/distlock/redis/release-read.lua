-- Releases a read hold only if the given owner still has it, and when the last reader
-- left wakes the next waiter (a writer) as release.lua does.
--
-- KEYS[1]  the read holds: the readers' owner tokens, scored by lease expiry (Redis ms)
-- KEYS[2]  the queue of fair waiters; absent while a Cluster slot migrates
-- ARGV[1]  the owner token of the read hold to release
-- ARGV[2]  the release channel of this lock
-- ARGV[3]  the lock's resource name
-- ARGV[4]  PUBLISH, or SPUBLISH for sharded channels (publish.lua)
--
-- Returns 1 when released, 0 when this owner had no read hold, or only an expired one.
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
