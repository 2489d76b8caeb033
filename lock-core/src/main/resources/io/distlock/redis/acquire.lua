-- Takes the lock when it is free and hands out the next fencing token, in one step.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter, in the same hash slot; outlives the lock
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after its last use, in milliseconds
--
-- Returns {1, fencing token} when the lock was taken, or {0, remaining lease in
-- milliseconds} when another owner holds it (-1 when the key has no expiry).
--
-- The token is the larger of (last token + 1) and Redis' clock in microseconds, so tokens
-- keep increasing even after the counter expired or a restart without persistence lost it.
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {0, redis.call('PTTL', KEYS[1])}
end
local time = redis.call('TIME')
local token = tonumber(time[1]) * 1000000 + tonumber(time[2])
local last = tonumber(redis.call('GET', KEYS[2]))
if last and last >= token then
  token = last + 1
end
redis.call('SET', KEYS[2], string.format('%d', token), 'PX', ARGV[3])
return {1, token}
