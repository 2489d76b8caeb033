-- Tells an operator what the store knows of one lock: holder, lease, last fencing token,
-- and how many fair waiters, read holds and permits it has. Changes nothing.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter, in the same hash slot
-- KEYS[3]  the queue timeouts: a sorted set of the fair waiters' owner tokens, scored by
--          the Redis time in milliseconds at which each waiter's place expires
-- KEYS[4]  the read holds: a sorted set of the readers' owner tokens, scored by the Redis
--          time in milliseconds at which each read lease expires; in the same hash slot
-- KEYS[5]  the permits: a sorted set of the permit holders' owner tokens, scored the same
--          way by lease expiry; in the same hash slot
--
-- Returns {held, lease, token, waiters, holder, readers, permits}: held is 1 or 0 (the
-- exclusive or write lock alone); lease the remaining lease in milliseconds (-1 when the
-- key has no expiry, -2 when not held); token the fencing counter as a string, or nil
-- when it is gone; waiters, readers and permits the number of places, read holds and
-- permit leases not expired yet (expired ones are only dropped by the next acquisition of
-- their kind); holder the first 16 hex digits of the SHA-1 of the holder's owner token,
-- or nil when not held or when the key holds no string.
--
-- Uses server_time (time.lua), which LockScripts puts in front of this script.
--
-- The holder is named by a digest and never by its owner token: whoever knows the token
-- can release or renew the lock, and inspection must not hand that power out. Readers and
-- permit holders are only counted, for the same reason.
local lease = redis.call('PTTL', KEYS[1])
local holder = false
if lease ~= -2 then
  -- pcall: a lock key overwritten with another type is held by no distlock owner.
  local owner = redis.pcall('GET', KEYS[1])
  if type(owner) == 'string' then
    holder = string.sub(redis.sha1hex(owner), 1, 16)
  end
end
local now = server_time()
-- pcall: a name overwritten with another type counts no live member.
local function live(key)
  local count = redis.pcall('ZCOUNT', key, '(' .. now, '+inf')
  return (type(count) == 'number') and count or 0
end
return {(lease ~= -2) and 1 or 0, lease, redis.call('GET', KEYS[2]), live(KEYS[3]), holder, live(KEYS[4]),
  live(KEYS[5])}
