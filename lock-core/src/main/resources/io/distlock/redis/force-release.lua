-- Removes the lock whoever holds it, without checking the owner: an operator's way out of
-- a lock whose holder hangs. Removes the key's read holds, the writer-waiting marker and
-- the key's permits as well, so that the whole key is free. Tells the next waiter about
-- it, as release.lua does.
--
-- KEYS[1]  the lock key
-- KEYS[2]  the queue of fair waiters (a list of owner tokens), in the same hash slot
-- KEYS[3]  the read holds: a sorted set of the readers' owner tokens, scored by the Redis
--          time in milliseconds at which each read lease expires; in the same hash slot
-- KEYS[4]  the writer-waiting marker, in the same hash slot
-- KEYS[5]  the permits: a sorted set of the permit holders' owner tokens, scored the same
--          way by lease expiry; in the same hash slot
-- ARGV[1]  the release channel of this lock
-- ARGV[2]  the lock's resource name
-- ARGV[3]  PUBLISH, or SPUBLISH to publish on the sharded channel (Redis Cluster); Redis
--          before 7 has no sharded channels and always gets PUBLISH
--
-- Publishes, on the release channel, the owner token of the first fair waiter when fair
-- waiters queue for the lock, otherwise the resource name: the same message as a release.
--
-- Returns 1 when a lock, a read hold or a permit whose lease had not expired was removed,
-- 0 when the key was not held in any way (a marker or expired leases alone are removed
-- all the same, and nobody is woken for them).
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
-- The writer-waiting marker goes: the readers it waited for are gone, and a writer that
-- still waits takes the lock on its next attempt, while readers need not wait for a
-- marker whose reason was removed.
--
-- pcall: a notification that cannot be published (an ACL user without permission on the
-- channel) must not fail a removal that has happened; waiters then notice the free lock
-- on their backoff. Read holds and permits are counted with pcall too: a name overwritten
-- with another type holds no live lease, and is deleted all the same.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function live(key)
  local count = redis.pcall('ZCOUNT', key, '(' .. now, '+inf')
  return (type(count) == 'number') and count or 0
end
local held = live(KEYS[3]) + live(KEYS[5]) > 0
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5])
if redis.call('DEL', KEYS[1]) == 1 then
  held = true
end
if not held then
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
