-- Release notifications, sent one way everywhere: LockScripts puts this file in front of
-- every script that wakes a waiter.
--
-- publish(command, channel, message)
--   command  the caller's choice (an ARGV of the script): PUBLISH, or SPUBLISH to publish
--            on the sharded channel (Redis Cluster); Redis before 7 has no sharded
--            channels, nor redis.REDIS_VERSION_NUM, and always gets PUBLISH
--   channel  the release channel of the lock
--   message  what the waiters are told: the owner token of the one fair waiter to wake,
--            or the lock's resource name, which wakes one waiter in each application
--   Runs that command, one Redis command.
--   Returns nothing.
--
-- pcall: a notification that cannot be published, such as for an ACL user without
-- permission on the channel, must not fail a script whose change has happened; waiters
-- then notice it on their backoff.
local function publish(command, channel, message)
  local sharded = command == 'SPUBLISH' and redis.REDIS_VERSION_NUM
  redis.pcall(sharded and 'SPUBLISH' or 'PUBLISH', channel, message)
end
