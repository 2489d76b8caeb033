-- Hands the lock from its owner straight to a new owner of the same application, with a
-- new fencing token and no release in between, unless anyone else waits for it.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter, in the same hash slot
-- KEYS[3]  the queue of fair waiters, in the same hash slot
-- KEYS[4]  the writer-waiting marker, in the same hash slot
-- KEYS[5]  the waiters announcement (acquire.lua), in the same hash slot
-- ARGV[1]  the owner token of the current holder
-- ARGV[2]  the owner token of the new holder
-- ARGV[3]  the new holder's lease time in milliseconds
-- ARGV[4]  how long the fencing counter is kept after its last use, in milliseconds
--
-- Returns {1, fencing token, clock} when the lock was handed over, with the new holder's
-- token, greater than every token handed out before (fencing.lua); {0} when it was
-- declined, since a caller announced that it waits (in any application: the announcement
-- does not say), fair waiters queue, or a writer waits for readers; {-1} when the lock is
-- not held by ARGV[1].
--
-- Uses server_micros (time.lua) and fencing_token (fencing.lua), which LockScripts puts
-- in front of this script.
--
-- Declined, the owner keeps the lock and releases it the usual way (release.lua), which
-- wakes the caller that waits. Declining whenever anyone announced is what keeps
-- hand-overs from starving the waiters of other applications: they announce themselves
-- on every busy attempt.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return {-1}
end
if redis.call('EXISTS', KEYS[3], KEYS[4], KEYS[5]) > 0 then
  return {0}
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
local token, clock = fencing_token(KEYS[2], ARGV[4], '1', server_micros())
return {1, token, clock}
