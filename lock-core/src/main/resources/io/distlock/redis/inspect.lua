-- Tells an operator what the store knows of one lock: holder, lease, last fencing token,
-- and how many fair waiters, read holds and permits it has. Changes nothing.
--
-- KEYS[1]  the lock key; holds the owner token while the lock is held
-- KEYS[2]  the fencing counter
-- KEYS[3]  the queue timeouts: the fair waiters' tokens, scored by place expiry (Redis ms)
-- KEYS[4]  the read holds: the readers' owner tokens, scored by lease expiry (Redis ms)
-- KEYS[5]  the permits: the holders' owner tokens, scored by lease expiry (Redis ms)
-- ARGV[1]  how many read holds and how many permit holders to describe at most
--
-- Returns {held, lease, token, waiters, holder, readers, permits, holdings}: held 1 or 0
-- (the exclusive or write lock); lease in ms (-1: no expiry, -2: not held); token the
-- counter as stored (nil when gone); waiters, readers and permits the live places, read
-- holds and permits; holder the digest of the holder's owner token (nil when none); then
-- holdings, four values per holder: kind ('exclusive', 'read' or 'permit'), digest,
-- description (holder.lua) and remaining lease; the exclusive holder first, then the read
-- holds and the permits whose lease ends first, at most ARGV[1] of each.
--
-- A digest: the first 16 hex digits of the SHA-1 of the owner token's secret part.
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
