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
--
-- Returns {1, fencing token} when the lock was taken, or {0, milliseconds} when it was
-- not: while another owner holds the lock, its remaining lease (-1 when the key has no
-- expiry); while readers hold the key, {0, milliseconds, 1}: the longest remaining read
-- lease, but at most half the marker's life, so that the writer comes back before its
-- marker expires, and 1 for the marker it left, which it withdraws (release.lua) if it
-- gives up.
--
-- The token is the larger of (last token + 1) and Redis' clock in microseconds, so tokens
-- keep increasing even after the counter expired or a restart without persistence lost it.
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
  return {0, redis.call('PTTL', KEYS[1])}
end
-- Another writer's marker stays: that writer still waits, now for this lock.
if shared and redis.call('GET', KEYS[4]) == ARGV[1] then
  redis.call('DEL', KEYS[4])
end
local time = redis.call('TIME')
local token = tonumber(time[1]) * 1000000 + tonumber(time[2])
local last = tonumber(redis.call('GET', KEYS[2]))
if last and last >= token then
  token = last + 1
end
redis.call('SET', KEYS[2], string.format('%d', token), 'PX', ARGV[3])
return {1, token}
