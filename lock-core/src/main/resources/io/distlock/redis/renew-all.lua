-- Extends the leases of a batch of locks in one call, each only if its owner still holds
-- it or has a read hold of it that has not expired, as renew.lua does for one. Never
-- creates a key or a hold, so a renewal that arrives after the release cannot bring the
-- lock back.
--
-- KEYS[1..N]      the lock keys; all in one hash slot on Redis Cluster
-- KEYS[N+1..2N]   the read holds of each lock (sorted sets of the readers' owner tokens,
--                 scored by the Redis time in milliseconds at which each read lease
--                 expires), in the order of the lock keys
-- ARGV[1..N]      the owner token of each lock's acquisition, in the order of the keys
-- ARGV[N+1..2N]   the new lease time of each lock in milliseconds, from now, in the same
--                 order
--
-- Returns a list of N integers in the order of the keys: 1 when that lease was renewed,
-- 0 when that lock is not held by that owner (it was lost).
--
-- pcall: a key overwritten with another type, or one this user may not read, is a lost
-- lock, not an error that would fail the renewal of every other lock in the batch.
local n = #KEYS / 2
local renewed = {}
local now
for i = 1, n do
  renewed[i] = 0
  if redis.pcall('GET', KEYS[i]) == ARGV[i] then
    redis.call('PEXPIRE', KEYS[i], ARGV[n + i])
    renewed[i] = 1
  else
    local expiry = redis.pcall('ZSCORE', KEYS[n + i], ARGV[i])
    if type(expiry) == 'string' then
      if not now then
        local time = redis.call('TIME')
        now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
      end
      local ttl = tonumber(ARGV[n + i])
      if tonumber(expiry) <= now then
        redis.call('ZREM', KEYS[n + i], ARGV[i])
      else
        redis.call('ZADD', KEYS[n + i], now + ttl, ARGV[i])
        if redis.call('PTTL', KEYS[n + i]) < ttl then
          redis.call('PEXPIREAT', KEYS[n + i], now + ttl)
        end
        renewed[i] = 1
      end
    end
  end
end
return renewed
