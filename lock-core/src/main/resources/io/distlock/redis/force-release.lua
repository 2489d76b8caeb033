-- Removes the lock whoever holds it, without checking the owner: an operator's way out of
-- a lock whose holder hangs. Tells the next waiter about it, as release.lua does.
--
-- KEYS[1]  the lock key
-- KEYS[2]  the queue of fair waiters (a list of owner tokens), in the same hash slot
-- ARGV[1]  the release channel of this lock
-- ARGV[2]  the lock's resource name
-- ARGV[3]  PUBLISH, or SPUBLISH to publish on the sharded channel (Redis Cluster); Redis
--          before 7 has no sharded channels and always gets PUBLISH
--
-- Publishes, on the release channel, the owner token of the first fair waiter when fair
-- waiters queue for the lock, otherwise the resource name: the same message as a release.
--
-- Returns 1 when a lock was removed, 0 when the key was not held.
--
-- The fencing counter is left alone, so the next holder's token is greater than the
-- removed holder's, and a resource guarded by fencing tokens refuses the removed holder
-- from then on.
--
-- The fair queue is left alone too. The holder is never in it (taking the lock ends a
-- waiter's place), so every waiter in it still waits for this lock; the first of them is
-- woken by its token, takes the lock, and the others follow in order. Dropping the head of
-- the queue would skip a waiter that did nothing wrong.
--
-- pcall: a notification that cannot be published (an ACL user without permission on the
-- channel) must not fail a removal that has happened; waiters then notice the free lock
-- on their backoff.
if redis.call('DEL', KEYS[1]) == 0 then
  return 0
end
local publish = (ARGV[3] == 'SPUBLISH' and redis.REDIS_VERSION_NUM) and 'SPUBLISH' or 'PUBLISH'
local first = redis.call('LINDEX', KEYS[2], 0)
if first then
  redis.pcall(publish, ARGV[1], first)
else
  redis.pcall(publish, ARGV[1], ARGV[2])
end
return 1
