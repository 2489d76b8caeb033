-- Release notifications, sent one way everywhere: LockScripts puts this file in front of
-- every script that wakes a waiter.
--
-- publish(command, channel, message)
--   command  PUBLISH, or SPUBLISH for the sharded channel (Redis Cluster)
--   channel  the release channel of the lock
--   message  the owner token of the fair waiter to wake, or the lock's resource name
--   Returns nothing; runs that one command.
--
-- Redis before 7 has no SPUBLISH, nor REDIS_VERSION_NUM: it always gets PUBLISH. pcall: a
-- failed notification (an ACL user without the channel) must not fail the script.
local function publish(command, channel, message)
  local sharded = command == 'SPUBLISH' and redis.REDIS_VERSION_NUM
  redis.pcall(sharded and 'SPUBLISH' or 'PUBLISH', channel, message)
end
