-- Tells whether the given owner holds the lock. Changes nothing.
--
-- KEYS[1]  the lock key
-- ARGV[1]  the owner token of the acquisition
--
-- Returns 1 when held, 0 otherwise.
--
-- pcall: a key overwritten with another type is a lost lock, not an error.
if redis.pcall('GET', KEYS[1]) == ARGV[1] then
  return 1
end
return 0
