-- Gives back the permit of the given owner only if it still holds one (its lease has not
-- expired), and publishes the resource name to wake a waiter.
--
-- KEYS[1]  the permits, as in acquire-permit.lua
-- ARGV[1]  the owner token of the acquisition to release
-- ARGV[2]  the release channel of this lock
-- ARGV[3]  the lock's resource name
-- ARGV[4]  PUBLISH, or SPUBLISH for sharded channels (publish.lua)
--
-- Returns 1 when released, 0 when this owner holds no permit (its lease expired).
local now = server_time()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then
  return 0
end
-- The set lives as long as its longest remaining lease; removing the last member
-- removed the set.
local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
if latest then
  redis.call('PEXPIREAT', KEYS[1], latest)
end
publish(ARGV[4], ARGV[2], ARGV[3])
return 1
