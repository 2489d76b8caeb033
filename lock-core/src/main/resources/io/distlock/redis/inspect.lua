-- Tells what the store knows of one lock, for an operator, without changing anything:
-- whether it is held and by which acquisition, how long the lease still runs, the last
-- fencing token handed out, and how many fair waiters keep a place in its queue.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter, in the same hash slot
-- KEYS[3]  the queue timeouts: a sorted set of the fair waiters' owner tokens, scored by
--          the Redis time in milliseconds at which each waiter's place expires
--
-- Returns {held, lease, token, waiters, holder}: held is 1 or 0; lease the remaining lease
-- in milliseconds (-1 when the key has no expiry, -2 when not held); token the fencing
-- counter as a string, or nil when it is gone; waiters the number of places not expired
-- yet (expired ones are only dropped by the next fair acquisition); holder the first 16
-- hex digits of the SHA-1 of the holder's owner token, or nil when not held or when the
-- key holds no string.
--
-- The holder is named by a digest and never by its owner token: whoever knows the token
-- can release or renew the lock, and inspection must not hand that power out.
local lease = redis.call('PTTL', KEYS[1])
local holder = false
if lease ~= -2 then
  -- pcall: a lock key overwritten with another type is held by no distlock owner.
  local owner = redis.pcall('GET', KEYS[1])
  if type(owner) == 'string' then
    holder = string.sub(redis.sha1hex(owner), 1, 16)
  end
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local waiters = redis.call('ZCOUNT', KEYS[3], '(' .. now, '+inf')
return {(lease ~= -2) and 1 or 0, lease, redis.call('GET', KEYS[2]), waiters, holder}
