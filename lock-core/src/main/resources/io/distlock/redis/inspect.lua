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
-- ARGV[1]  how many read holds and how many permit holders to describe at most
--
-- Returns {held, lease, token, waiters, holder, readers, permits, holdings}: held is 1
-- or 0 (the exclusive or write lock alone); lease the remaining lease in milliseconds
-- (-1 when the key has no expiry, -2 when not held); token the fencing counter as a
-- string, or nil when it is gone; waiters, readers and permits the number of places, read holds and
-- permit leases not expired yet (expired ones are only dropped by the next acquisition of
-- their kind); holder the first 16 hex digits of the SHA-1 of the holder's owner token,
-- or nil when not held or when the key holds no string. holdings lists who holds the
-- key, four values each: the kind ('exclusive', 'read' or 'permit'), the digest of the
-- owner token, the holder's description (holder.lua; nil when it has none) and the
-- remaining lease in milliseconds (-1: no expiry); the exclusive holder first, then at
-- most ARGV[1] read holds and ARGV[1] permit holders, those whose lease ends first.
--
-- Uses server_time (time.lua) and holder_of (holder.lua), which LockScripts puts in front
-- of this script.
--
-- A holder is named by a digest and its description, never by its owner token: whoever
-- knows the token can release or renew the lock, and inspection must not hand that power
-- out. The digest is taken of the part before the description, the owner's secret.
local function digest(owner)
  local at = string.find(owner, '\31', 1, true)
  return string.sub(redis.sha1hex(at and string.sub(owner, 1, at - 1) or owner), 1, 16)
end
local holdings = {}
local function add(kind, owner, lease)
  holdings[#holdings + 1] = kind
  holdings[#holdings + 1] = digest(owner)
  holdings[#holdings + 1] = holder_of(owner)
  holdings[#holdings + 1] = lease
end
local lease = redis.call('PTTL', KEYS[1])
local holder = false
if lease ~= -2 then
  -- pcall: a lock key overwritten with another type is held by no distlock owner.
  local owner = redis.pcall('GET', KEYS[1])
  if type(owner) == 'string' then
    holder = digest(owner)
    add('exclusive', owner, lease)
  end
end
local now = server_time()
local limit = tonumber(ARGV[1]) or 0
local function describe(kind, key)
  if limit <= 0 then
    return
  end
  local members = redis.pcall('ZRANGEBYSCORE', key, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, limit)
  if type(members) ~= 'table' or members.err then
    return
  end
  for i = 1, #members, 2 do
    add(kind, members[i], tonumber(members[i + 1]) - now)
  end
end
describe('read', KEYS[4])
describe('permit', KEYS[5])
-- pcall: a name overwritten with another type counts no live member.
local function live(key)
  local count = redis.pcall('ZCOUNT', key, '(' .. now, '+inf')
  return (type(count) == 'number') and count or 0
end
return {(lease ~= -2) and 1 or 0, lease, redis.call('GET', KEYS[2]), live(KEYS[3]), holder, live(KEYS[4]),
  live(KEYS[5]), holdings}
