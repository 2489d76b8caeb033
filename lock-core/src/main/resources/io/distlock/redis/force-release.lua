-- Frees the whole key whoever holds it (the lock, its read holds, the writer-waiting
-- marker and its permits), and tells the next waiter, as release.lua does.
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
-- ARGV[3]  PUBLISH, or SPUBLISH for sharded channels (Redis Cluster): see publish.lua
--
-- Returns 1 when a lock, a read hold or a permit whose lease had not expired was removed,
-- 0 when the key was not held in any way (a marker or expired leases alone are removed
-- all the same, and nobody is woken for them).
--
-- Uses server_time (time.lua) and publish (publish.lua), which LockScripts puts in front
-- of this script.
--
-- An operator's way out of a lock whose holder hangs: it does not check the owner.
-- Publishes, on the release channel, the owner token of the first fair waiter when fair
-- waiters queue for the lock, otherwise the resource name: the same message as a release.
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
-- pcall, to count read holds and permits: a name overwritten with another type holds no
-- live lease, and is deleted all the same.
local now = server_time()
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
local first = redis.call('LINDEX', KEYS[2], 0)
if first then
  publish(ARGV[3], ARGV[1], first)
else
  publish(ARGV[3], ARGV[1], ARGV[2])
end
return 1
