-- Takes the lock (the exclusive or write lock of the key) when it is free and no reader
-- holds the key, and hands out the next fencing token, in one step.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter, in the same hash slot; outlives the lock
-- KEYS[3]  the read holds: a sorted set of the readers' owner tokens, scored by the Redis
--          time in milliseconds at which each read lease expires; in the same hash slot
-- KEYS[4]  the writer-waiting marker: the owner token of a writer that found readers,
--          which keeps new readers out while it lives; in the same hash slot
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after its last use, in milliseconds
-- ARGV[4]  how long the writer-waiting marker lives without another attempt, in
--          milliseconds
-- ARGV[5]  '0' for tokens from the counter alone (Redlock's nodes: see below); anything
--          else, or nothing, for tokens that take the clock
-- KEYS[5]  the waiters announcement: set when the lock is busy, so that its release is
--          published (release.lua); in the same hash slot
--
-- Returns {1, fencing token} when the lock was taken, or {0, milliseconds} when it was
-- not: while another owner holds the lock, its remaining lease (-1 when the key has no
-- expiry); while readers hold the key, {0, milliseconds, 1}: the longest remaining read
-- lease, but at most half the marker's life, so that the writer comes back before its
-- marker expires, and 1 for the marker it left, which it withdraws (release.lua) if it
-- gives up.
--
-- The token is the larger of Redis' clock in microseconds and the counter + 1. The clock
-- keeps tokens increasing where the counter alone would not: after a failover to a replica
-- that missed the last tokens, or a restart that lost the counter, as long as the clocks of
-- the old and the new primary agree to within the time since those tokens. The counter
-- keeps them increasing when the clock stands still or steps back. SET with GET writes
-- the clock and reads the last token in one command; a second SET is needed only when the
-- last token is not behind the clock.
--
-- With ARGV[5] '0' the token is the counter incremented, one command, and the clock only
-- starts a counter that is gone (expired after ARGV[3] from its start, or lost by a
-- restart), which keeps tokens increasing there as long as the clock did not step back by
-- more than the retention. For masters without replicas, such as Redlock's nodes, whose
-- counters this keeps in step, so that Redlock need not raise them after each lock.
--
-- A caller that finds the lock busy announces itself (KEYS[5], for as long as the
-- holder's lease runs), so that the holder's release wakes it; an uncontended lock+unlock
-- publishes nothing.
--
-- A key no reader ever used costs one EXISTS more than a plain lock: the read holds and
-- the marker only exist while a reader or a waiting writer keeps them alive.
local shared = redis.call('EXISTS', KEYS[3], KEYS[4]) > 0
if shared then
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  local latest = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')[2]
  if latest then
    local wait = tonumber(ARGV[4])
    redis.call('SET', KEYS[4], ARGV[1], 'PX', wait)
    return {0, math.min(tonumber(latest) - now, math.floor(wait / 2)), 1}
  end
end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local lease = redis.call('PTTL', KEYS[1])
  redis.call('SET', KEYS[5], '1', 'PX', (lease > 0) and lease or ARGV[4])
  return {0, lease}
end
-- Another writer's marker stays: that writer still waits, now for this lock.
if shared and redis.call('GET', KEYS[4]) == ARGV[1] then
  redis.call('DEL', KEYS[4])
end
if ARGV[5] == '0' then
  local counted = redis.call('INCR', KEYS[2])
  if counted == 1 then
    local time = redis.call('TIME')
    counted = tonumber(time[1]) * 1000000 + tonumber(time[2])
    redis.call('SET', KEYS[2], string.format('%d', counted), 'PX', ARGV[3])
  end
  return {1, counted}
end
local time = redis.call('TIME')
local token = tonumber(time[1]) * 1000000 + tonumber(time[2])
local last = tonumber(redis.call('SET', KEYS[2], string.format('%d', token), 'PX', ARGV[3], 'GET'))
if last and last >= token then
  token = last + 1
  redis.call('SET', KEYS[2], string.format('%d', token), 'PX', ARGV[3])
end
return {1, token}
