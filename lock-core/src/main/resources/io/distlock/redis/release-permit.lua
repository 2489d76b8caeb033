-- Gives back the permit of the given owner only if it still holds one (its lease has not
-- expired), and tells a waiter about it.
--
-- KEYS[1]  the permits: a sorted set of owner tokens scored by lease expiry, as in
--          acquire-permit.lua
-- ARGV[1]  the owner token of the acquisition to release
-- ARGV[2]  the release channel of this lock
-- ARGV[3]  the lock's resource name
-- ARGV[4]  PUBLISH, or SPUBLISH to publish on the sharded channel (Redis Cluster); Redis
--          before 7 has no sharded channels and always gets PUBLISH
--
-- Publishes the resource name on the release channel, which wakes one waiter of the lock
-- in each application: one free permit, at least one caller trying for it.
--
-- Returns 1 when released, 0 when this owner holds no permit (its lease expired).
--
-- pcall: a notification that cannot be published, such as for an ACL user without
-- permission on the channel, must not fail a release that has happened; waiters then
-- notice the free permit on their backoff.
local publish = (ARGV[4] == 'SPUBLISH' and redis.REDIS_VERSION_NUM) and 'SPUBLISH' or 'PUBLISH'
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
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
redis.pcall(publish, ARGV[2], ARGV[3])
return 1
