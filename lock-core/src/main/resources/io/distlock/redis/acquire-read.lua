-- Takes a read hold of the key, shared with every other reader, and hands out its fencing
-- token; refused while a writer holds the lock or waits for it.
--
-- KEYS[1]  the lock key; holds the writer's owner token while the lock is held
-- KEYS[2]  the fencing counter, in the same hash slot
-- KEYS[3]  the read holds: a sorted set of the readers' owner tokens, scored by the Redis
--          time in milliseconds at which each read lease expires; in the same hash slot
-- KEYS[4]  the writer-waiting marker, in the same hash slot
-- KEYS[5]  the waiters announcement (acquire.lua): set when the attempt was refused, so
--          that the writer's release is published
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after this grant, in milliseconds
-- ARGV[4]  '0' for an attempt nobody waits on (a try once): a refused attempt is then not
--          announced; anything else, or nothing, announces it
--
-- Returns {1, fencing token, clock} when the hold was taken: a token of its own, from the
-- key's counter as a writer's (fencing.lua), so greater than the token of every writer
-- and reader before it, and every later writer's is greater than it. Returns {0,
-- milliseconds, 0, holder} when it was not: the writer's remaining lease (-1 when the
-- lock key has no expiry), or how long the waiting writer's marker still lives, and the
-- description of that writer (holder.lua; nil when it has none).
--
-- Uses server_time (time.lua), fencing_token (fencing.lua) and holder_of (holder.lua),
-- which LockScripts puts in front of this script.
--
-- Refused while a writer waits, so that a stream of readers cannot starve a writer. Each
-- reader has a lease of its own, so a reader that crashed gives its hold back when its
-- lease runs out.
--
-- The sorted set expires with its latest lease, so that a key whose readers all crashed
-- costs a writer nothing more than on a key never read.
-- A refusal: the writer's lock key or marker (given) still lives for the given
-- milliseconds (-1: no expiry). Unless nobody waits on the attempt, it is announced for
-- as long, or for a second when the key has no expiry.
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
