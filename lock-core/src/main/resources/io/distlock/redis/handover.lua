-- Hands the lock from its owner straight to a new owner of the same application, with a
-- new fencing token and no release in between, unless anyone else waits for it.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter
-- KEYS[3]  the queue of fair waiters
-- KEYS[4]  the writer-waiting marker
-- KEYS[5]  the waiters announcement (acquire.lua)
-- ARGV[1]  the owner token of the current holder
-- ARGV[2]  the owner token of the new holder
-- ARGV[3]  the new holder's lease time in milliseconds
-- ARGV[4]  how long the fencing counter is kept after its last use, in milliseconds
--
-- Returns {1, fencing token, clock} when handed over (fencing.lua); {0} when declined,
-- the owner keeping the lock, since fair waiters queue, a writer waits for readers or a
-- caller of any application announced that it waits; {-1} when the owner does not hold it.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return {-1}
end
if redis.call('EXISTS', KEYS[3], KEYS[4], KEYS[5]) > 0 then
  return {0}
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
local token, clock = fencing_token(KEYS[2], ARGV[4], '1', server_micros())
return {1, token, clock}
