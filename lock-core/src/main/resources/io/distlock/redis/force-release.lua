-- Frees the whole key whoever holds it (the lock, its read holds, the writer-waiting
-- marker and its permits), and wakes the next waiter as release.lua does.
--
-- KEYS[1]  the lock key
-- KEYS[2]  the queue of fair waiters, left alone
-- KEYS[3]  the read holds
-- KEYS[4]  the writer-waiting marker
-- KEYS[5]  the permits
-- ARGV[1]  the release channel of this lock
-- ARGV[2]  the lock's resource name
-- ARGV[3]  PUBLISH, or SPUBLISH for sharded channels (publish.lua)
--
-- Returns 1 when a lock, a read hold or a permit not expired yet was removed, 0 when the
-- key was not held (a marker or expired leases are removed all the same, waking nobody).
--
-- pcall: a name overwritten with another type holds no live lease, and is deleted too.
local now = server_time()
local function live(key)
  local count = redis.pcall('ZCOUNT', key, '(' .. now, '+inf')
  return (type(count) == 'number') and count or 0
end
local held = live(KEYS[3]) + live(KEYS[5]) > 0
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5])
if redis.call('DEL', KEYS[1]) == 1 then
  held = true
end
if not held then
  return 0
end
local first = redis.call('LINDEX', KEYS[2], 0)
if first then
  publish(ARGV[3], ARGV[1], first)
else
  publish(ARGV[3], ARGV[1], ARGV[2])
end
return 1
