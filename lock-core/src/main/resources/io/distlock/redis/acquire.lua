-- Takes the lock (the exclusive or write lock of the key) when it is free and no reader
-- holds the key, and hands out the next fencing token, in one step.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter
-- KEYS[3]  the read holds: the readers' owner tokens, scored by lease expiry (Redis ms)
-- KEYS[4]  the writer-waiting marker: the owner token of a writer that found readers
-- KEYS[5]  the waiters announcement: set when the lock is busy, so the release publishes
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after its last use, in milliseconds
-- ARGV[4]  how long the writer-waiting marker lives without another attempt, in ms
-- ARGV[5]  '0' for tokens from the counter alone (Redlock's nodes), else from the clock
-- ARGV[6]  '0' for an attempt nobody waits on (try once): a busy lock is not announced
--
-- Returns {1, fencing token, clock} when taken (fencing.lua); {0, lease, 0, holder} while
-- another owner holds it (its remaining lease, -1: no expiry; holder.lua); {0, wait, 1,
-- holder} while readers hold the key: the last read lease, at most half the marker's life.
local shared = redis.call('EXISTS', KEYS[3], KEYS[4]) > 0
if shared then
  local now = server_time()
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
  if last[2] then
    local wait = tonumber(ARGV[4])
    redis.call('SET', KEYS[4], ARGV[1], 'PX', wait)
    return {0, math.min(tonumber(last[2]) - now, math.floor(wait / 2)), 1, holder_of(last[1])}
  end
end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local lease = redis.call('PTTL', KEYS[1])
  if ARGV[6] ~= '0' then
    redis.call('SET', KEYS[5], '1', 'PX', (lease > 0) and lease or ARGV[4])
  end
  return {0, lease, 0, holder_of(redis.pcall('GET', KEYS[1]))}
end
-- Another writer's marker stays: that writer still waits, now for this lock.
if shared and redis.call('GET', KEYS[4]) == ARGV[1] then
  redis.call('DEL', KEYS[4])
end
local token, clock = fencing_token(KEYS[2], ARGV[3], ARGV[5], server_micros())
return {1, token, clock}
