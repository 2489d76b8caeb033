-- Releases the lock only if the given owner holds it (compare-and-delete), and tells
-- waiters about it.
--
-- KEYS[1]  the lock key
-- ARGV[1]  the owner token of the acquisition to release
-- ARGV[2]  the release channel of this lock, in the same hash slot as KEYS[1]
-- ARGV[3]  the lock's resource name, published as the message
--
-- Returns 1 when released, 0 when the lock is not held by this owner (it expired and
-- may belong to someone else now, whose lock stays untouched).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
