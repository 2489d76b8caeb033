-- Extends a batch of leases of one kind (locks, or read holds) in one call, each only if
-- its owner still holds it, as renew.lua does for one.
--
-- KEYS[1..N]      the lock keys or, with 'read', their read holds; one slot on Cluster
-- ARGV[1..N]      the owner token of each lease's acquisition, in the order of the keys
-- ARGV[N+1..2N]   the new lease time of each in milliseconds, from now, in the same order
-- ARGV[2N+1]      'read' when the keys are read holds; absent for locks
--
-- Returns N integers in the order of the keys: 1 when that lease was renewed, 0 when it
-- is not held by that owner (it was lost, or is of the other kind).
--
-- pcall: a key overwritten with another type, or one this user may not read, is a lost
-- lock, not an error that would fail the whole batch.
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
