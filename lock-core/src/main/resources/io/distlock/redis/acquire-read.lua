-- Takes a read hold of the key, shared with every other reader, and hands out its fencing
-- token; refused while a writer holds the lock or waits for it.
--
-- KEYS[1]  the lock key; holds the writer's owner token while the lock is held
-- KEYS[2]  the fencing counter
-- KEYS[3]  the read holds: the readers' owner tokens, scored by lease expiry (Redis ms)
-- KEYS[4]  the writer-waiting marker
-- KEYS[5]  the waiters announcement (acquire.lua), set when the attempt is refused
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after this grant, in milliseconds
-- ARGV[4]  '0' for an attempt nobody waits on (try once): a refusal is not announced
--
-- Returns {1, fencing token, clock} when the hold was taken, with a token of its own
-- (fencing.lua); {0, ms, 0, holder} when refused: how long the writer's lock key or
-- marker still lives (-1: no expiry) and that writer's description (holder.lua).
--
-- A refusal, announced for as long as the key lives (a second when it has no expiry).
local function refused(milliseconds, key)
  if ARGV[4] ~= '0' then
    redis.call('SET', KEYS[5], '1', 'PX', (milliseconds > 0) and milliseconds or 1000)
  end
  return {0, milliseconds, 0, holder_of(redis.pcall('GET', key))}
end
local lease = redis.call('PTTL', KEYS[1])
if lease ~= -2 then
  return refused(lease, KEYS[1])
end
local waiting = redis.call('PTTL', KEYS[4])
if waiting ~= -2 then
  return refused(waiting, KEYS[4])
end
local now, micros = server_time()
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[1])
local latest = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')[2]
redis.call('PEXPIREAT', KEYS[3], latest)
local token, clock = fencing_token(KEYS[2], ARGV[3], '1', micros)
return {1, token, clock}
