-- Extends a batch of leases of one kind in one call (locks, or with ARGV[2N+1] 'read',
-- read holds), each only if its owner still holds it, as renew.lua does for one.
--
-- KEYS[1..N]      the leases: lock keys or, with ARGV[2N+1] 'read', the read holds of
--                 each lock (sorted sets of the readers' owner tokens, scored by the Redis
--                 time in milliseconds at which each read lease expires); all in one
--                 hash slot on Redis Cluster
-- ARGV[1..N]      the owner token of each lease's acquisition, in the order of the keys
-- ARGV[N+1..2N]   the new lease time of each in milliseconds, from now, in the same order
-- ARGV[2N+1]      'read' when the keys are read holds; absent for locks
--
-- Returns a list of N integers in the order of the keys: 1 when that lease was renewed,
-- 0 when it is not held by that owner (it was lost, or is of the other kind).
--
-- Uses server_time (time.lua), which LockScripts puts in front of this script.
--
-- Never creates a key or a hold, so a renewal that arrives after the release cannot
-- bring the lock back.
--
-- Only the keys of one kind: on Redis Cluster a script whose keys are not all on the node
-- is refused while their slot migrates (TRYAGAIN), and a lock held for reading has no
-- lock key, a lock held for writing no read holds. The caller renews a batch refused
-- that way one lease per call.
--
-- pcall: a key overwritten with another type, or one this user may not read, is a lost
-- lock, not an error that would fail the renewal of every other lock in the batch.
local n = #KEYS
local read = ARGV[2 * n + 1] == 'read'
local renewed = {}
local now
for i = 1, n do
  renewed[i] = 0
  if not read then
    if redis.pcall('GET', KEYS[i]) == ARGV[i] then
      redis.call('PEXPIRE', KEYS[i], ARGV[n + i])
      renewed[i] = 1
    end
  else
    local expiry = redis.pcall('ZSCORE', KEYS[i], ARGV[i])
    if type(expiry) == 'string' then
      if not now then
        now = server_time()
      end
      local ttl = tonumber(ARGV[n + i])
      if tonumber(expiry) <= now then
        redis.call('ZREM', KEYS[i], ARGV[i])
      else
        redis.call('ZADD', KEYS[i], now + ttl, ARGV[i])
        if redis.call('PTTL', KEYS[i]) < ttl then
          redis.call('PEXPIREAT', KEYS[i], now + ttl)
        end
        renewed[i] = 1
      end
    end
  end
end
return renewed
