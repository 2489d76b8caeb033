-- Takes the lock (the exclusive or write lock of the key) when it is free and no reader
-- holds the key, and hands out the next fencing token, in one step.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter, in the same hash slot; outlives the lock
-- KEYS[3]  the read holds: a sorted set of the readers' owner tokens, scored by the Redis
--          time in milliseconds at which each read lease expires; in the same hash slot
-- KEYS[4]  the writer-waiting marker: the owner token of a writer that found readers,
--          which keeps new readers out while it lives; in the same hash slot
-- KEYS[5]  the waiters announcement: set when the lock is busy, so that its release is
--          published (release.lua); in the same hash slot
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after its last use, in milliseconds
-- ARGV[4]  how long the writer-waiting marker lives without another attempt, in
--          milliseconds
-- ARGV[5]  '0' for tokens from the counter alone (Redlock's nodes: fencing.lua); anything
--          else, or nothing, for tokens that take the clock
-- ARGV[6]  '0' for an attempt nobody waits on (a try once): a busy lock is then not
--          announced; anything else, or nothing, announces it
--
-- Returns {1, fencing token, clock} when the lock was taken, with the server's clock in
-- microseconds at which the token was granted (fencing.lua), or {0, milliseconds, 0,
-- holder} when it was not: while another owner holds the lock, its remaining lease (-1
-- when the key has no expiry) and its holder's description (holder.lua; nil when it has
-- none); while readers hold the key, {0, milliseconds, 1, holder}: the longest remaining
-- read lease, but at most half the marker's life, so that the writer comes back before
-- its marker expires, 1 for the marker it left, which it withdraws (release.lua) if it
-- gives up, and the description of the reader whose lease ends last.
--
-- Uses server_time, server_micros (time.lua), fencing_token (fencing.lua) and holder_of
-- (holder.lua), which LockScripts puts in front of this script.
--
-- A caller that finds the lock busy announces itself (KEYS[5], for as long as the
-- holder's lease runs), so that the holder's release wakes it, unless it does not wait;
-- an uncontended lock+unlock publishes nothing.
--
-- A key no reader ever used costs one EXISTS more than a plain lock: the read holds and
-- the marker only exist while a reader or a waiting writer keeps them alive.
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
