-- Releases the lock only if the given owner holds it (compare-and-delete), and publishes
-- the release when a caller announced that it waits.
--
-- KEYS[1]  the lock key
-- KEYS[2]  the queue of fair waiters
-- KEYS[3]  the writer-waiting marker, removed (and published) when it is this owner's
-- KEYS[4]  the waiters announcement (acquire.lua), removed with the lock
-- ARGV[1]  the owner token of the acquisition to release
-- ARGV[2]  the release channel of this lock
-- ARGV[3]  the lock's resource name
-- ARGV[4]  PUBLISH, or SPUBLISH for sharded channels (publish.lua)
--
-- Returns 1 when released, 0 when this owner does not hold the lock (it expired, or a
-- writer gave up), which is then left alone. Publishes the first fair waiter's owner
-- token, else the resource name. Given the lock key alone (a Cluster slot migrating), it
-- compares, deletes and always publishes the resource name.
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
