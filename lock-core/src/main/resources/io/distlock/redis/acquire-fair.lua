-- Takes the lock in arrival order: only when it is free and no other fair waiter came
-- first. A caller that does not get it joins the queue (or keeps its place there).
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter
-- KEYS[3]  the queue: a list of the waiters' owner tokens, first come first
-- KEYS[4]  the queue timeouts: the same tokens, scored by place expiry (Redis ms)
-- KEYS[5]  the read holds, as in acquire.lua
-- KEYS[6]  the writer-waiting marker, as in acquire.lua
-- KEYS[7]  the waiters announcement, as in acquire.lua; set while anyone keeps a place
-- ARGV[1]  the owner token of this acquisition
-- ARGV[2]  the lease time in milliseconds
-- ARGV[3]  how long the fencing counter is kept after its last use, in milliseconds
-- ARGV[4]  how long this caller's place is kept without another call, in ms; 0: try once
-- ARGV[5]  the release channel, to wake the waiter that became first when the lock is free
-- ARGV[6]  PUBLISH, or SPUBLISH for sharded channels (publish.lua)
-- ARGV[7]  how long the writer-waiting marker lives without another attempt, in ms
--
-- Returns {1, fencing token, clock} when taken; {0, lease, 0, holder} while held and {0,
-- wait, 1, holder} while readers hold the key, as acquire.lua does; {0, ms} while it is
-- free for an earlier waiter: how long that waiter's place is kept (-1: it has none).
local now, micros = server_time()
local expired = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now)
for _, waiter in ipairs(expired) do
  redis.call('LREM', KEYS[3], 1, waiter)
  redis.call('ZREM', KEYS[4], waiter)
end
local first = redis.call('LINDEX', KEYS[3], 0)
local free = redis.call('EXISTS', KEYS[1]) == 0
local readLease, reader
if free and redis.call('EXISTS', KEYS[5], KEYS[6]) > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
  local last = redis.call('ZRANGE', KEYS[5], -1, -1, 'WITHSCORES')
  if last[2] then
    free = false
    local wait = tonumber(ARGV[7])
    readLease = math.min(tonumber(last[2]) - now, math.floor(wait / 2))
    reader = last[1]
    redis.call('SET', KEYS[6], ARGV[1], 'PX', wait)
  end
end
if free and (not first or first == ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  if redis.call('GET', KEYS[6]) == ARGV[1] then
    redis.call('DEL', KEYS[6])
  end
  if first then
    redis.call('LPOP', KEYS[3])
    redis.call('ZREM', KEYS[4], ARGV[1])
    -- The release cleared the announcement: the waiters still queued need the next one.
    local queued = redis.call('PTTL', KEYS[3])
    if queued > 0 then
      redis.call('SET', KEYS[7], '1', 'PX', queued)
    end
  end
  local token, clock = fencing_token(KEYS[2], ARGV[3], '1', micros)
  return {1, token, clock}
end
local place = tonumber(ARGV[4])
if place > 0 then
  if redis.call('ZADD', KEYS[4], now + place, ARGV[1]) == 1 then
    redis.call('RPUSH', KEYS[3], ARGV[1])
  end
  -- The queue lives as long as the last place in it, so an abandoned queue goes away.
  local latest = redis.call('ZRANGE', KEYS[4], -1, -1, 'WITHSCORES')[2]
  redis.call('PEXPIREAT', KEYS[3], latest)
  redis.call('PEXPIREAT', KEYS[4], latest)
  redis.call('SET', KEYS[7], '1', 'PXAT', latest)
end
if readLease then
  return {0, readLease, 1, holder_of(reader)}
end
if not free then
  return {0, redis.call('PTTL', KEYS[1]), 0, holder_of(redis.pcall('GET', KEYS[1]))}
end
-- Free, but an earlier waiter's turn; it missed the release if dropping waiters made it
-- first just now.
if #expired > 0 then
  publish(ARGV[6], ARGV[5], first)
end
local firstPlace = redis.call('ZSCORE', KEYS[4], first)
if not firstPlace then
  return {0, -1}
end
return {0, math.max(0, tonumber(firstPlace) - now)}
