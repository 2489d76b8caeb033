-- Extends the leases of a batch of permits in one call, each only if its owner still
-- holds it (its lease has not expired).
--
-- KEYS[1..N]      the permit sets (as in acquire-permit.lua); one slot on Cluster
-- ARGV[1..N]      the owner token of each permit's acquisition, in the order of the keys
-- ARGV[N+1..2N]   the new lease time of each in milliseconds, from now, in the same order
--
-- Returns N integers in the order of the keys: 1 when that lease was renewed, 0 when
-- that owner holds no permit there (it was lost).
--
-- pcall: a key overwritten with another type, or one this user may not read, is a lost
-- permit, not an error that would fail the whole batch.
local now = server_time()
local n = #KEYS
local renewed = {}
for i = 1, n do
  renewed[i] = 0
  redis.pcall('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  local score = redis.pcall('ZSCORE', KEYS[i], ARGV[i])
  if type(score) == 'string' then
    redis.call('ZADD', KEYS[i], 'XX', string.format('%d', now + tonumber(ARGV[n + i])), ARGV[i])
    -- The set lives as long as its longest lease, which this one may now be.
    redis.call('PEXPIREAT', KEYS[i], redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')[2])
    renewed[i] = 1
  end
end
return renewed
