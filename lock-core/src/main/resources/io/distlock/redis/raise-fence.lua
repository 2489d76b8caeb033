-- Raises the fencing counter to a token handed out across several nodes (Redlock), but
-- only while the given owner still holds the lock here.
--
-- KEYS[1]  the lock key
-- KEYS[2]  the fencing counter, in the same hash slot
-- ARGV[1]  the owner token of the acquisition
-- ARGV[2]  the fencing token of the acquisition: the maximum over the nodes that took it
-- ARGV[3]  how long the fencing counter is kept after its last use, in milliseconds
--
-- Returns 1 when the counter is at least the token now, 0 when the lock is not held by
-- this owner (the counter is then left alone).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
-- The counter is "T" or "T:C" (fencing.lua); the token is the digits before any colon.
local last = tonumber(string.match(redis.call('GET', KEYS[2]) or '', '^%d+'))
if not last or last < tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
end
return 1
