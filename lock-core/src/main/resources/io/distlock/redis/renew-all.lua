-- Extends the leases of a batch of locks in one call, each only if its owner still holds
-- it (compare-and-pexpire, as renew.lua). Never creates a key, so a renewal that arrives
-- after the release cannot bring the lock back.
--
-- KEYS[1..N]      the lock keys; all in one hash slot on Redis Cluster
-- ARGV[1..N]      the owner token of each lock's acquisition, in the order of the keys
-- ARGV[N+1..2N]   the new lease time of each lock in milliseconds, from now, in the same
--                 order
--
-- Returns a list of N integers in the order of the keys: 1 when that lease was renewed,
-- 0 when that lock is not held by that owner (it was lost).
--
-- pcall: a key overwritten with another type, or one this user may not read, is a lost
-- lock, not an error that would fail the renewal of every other lock in the batch.
local n = #KEYS
local renewed = {}
for i = 1, n do
  if redis.pcall('GET', KEYS[i]) == ARGV[i] then
    redis.call('PEXPIRE', KEYS[i], ARGV[n + i])
    renewed[i] = 1
  else
    renewed[i] = 0
  end
end
return renewed
