-- Releases the lock only if the given owner holds it (compare-and-delete), and tells the
-- next waiter about it when a caller announced that it waits.
--
-- KEYS[1]  the lock key
-- KEYS[2]  the queue of fair waiters (a list of owner tokens), in the same hash slot
-- KEYS[3]  the writer-waiting marker, in the same hash slot; removed when it is this
--          owner's, since an owner that releases what it did not get has stopped waiting
--          for it
-- KEYS[4]  the waiters announcement (acquire.lua), in the same hash slot
-- ARGV[1]  the owner token of the acquisition to release
-- ARGV[2]  the release channel of this lock
-- ARGV[3]  the lock's resource name
-- ARGV[4]  PUBLISH, or SPUBLISH for sharded channels (Redis Cluster): see publish.lua
--
-- Returns 1 when released, 0 when the lock is not held by this owner (it expired and
-- may belong to someone else now, whose lock stays untouched, or it was never taken by
-- this owner: a writer that gave up). A writer-waiting marker of this owner is removed
-- either way, and its removal is published, so that readers it kept out get in at once.
--
-- Uses publish (publish.lua), which LockScripts puts in front of this script.
--
-- Only when a caller announced that it waits (KEYS[4] exists) is anything published, and
-- the announcement goes with the lock: the waiters that lose the race for the lock
-- announce themselves again to its next holder. Then it publishes, on the release
-- channel, the owner token of the first fair waiter when fair waiters queue for the lock,
-- so that exactly that waiter is woken; otherwise the resource name, which wakes one
-- waiter of the lock in each application. An uncontended release runs GET and DEL.
--
-- Given the lock key alone (KEYS[2..4] absent), it compares and deletes that and always
-- publishes the resource name: the form for a slot migrating between Redis Cluster
-- nodes, where a script with several keys is refused (TRYAGAIN) while any of them is
-- missing, and the queue, the marker and the announcement usually are. It runs on
-- whichever node holds the lock key. The announcement then stays until its own expiry,
-- and a first fair waiter notices the free lock on its backoff.
if #KEYS == 1 then
  if redis.call('GET', KEYS[1]) ~= ARGV[1] then
    return 0
  end
  redis.call('DEL', KEYS[1])
  publish(ARGV[4], ARGV[2], ARGV[3])
  return 1
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  if redis.call('GET', KEYS[3]) == ARGV[1] then
    redis.call('DEL', KEYS[3])
    publish(ARGV[4], ARGV[2], ARGV[3])
  end
  return 0
end
if redis.call('DEL', KEYS[1], KEYS[4]) == 1 then
  return 1
end
local first = redis.call('LINDEX', KEYS[2], 0)
publish(ARGV[4], ARGV[2], first or ARGV[3])
return 1
