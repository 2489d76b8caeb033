-- Extends the lease only if the given owner holds the lock (compare-and-pexpire). Never
-- creates the key, so a renewal that arrives after the release cannot bring it back.
--
-- KEYS[1]  the lock key
-- ARGV[1]  the owner token of the acquisition to renew
-- ARGV[2]  the new lease time in milliseconds, from now
--
-- Returns 1 when renewed, 0 when the lock is not held by this owner (it was lost).
--
-- pcall: a key overwritten with another type is a lost lock, not an error.
if redis.pcall('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
