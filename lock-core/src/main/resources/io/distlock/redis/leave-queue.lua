-- Takes a fair waiter out of the queue, because it gave up or was interrupted. When it was
-- first and the lock is free, the waiter now first is told it's its turn.
--
-- KEYS[1]  the lock key
-- KEYS[2]  the queue: a list of the waiters' owner tokens, first come first
-- KEYS[3]  the queue timeouts: a sorted set of the same tokens
-- ARGV[1]  the owner token of the waiter leaving
-- ARGV[2]  the release channel of the lock
-- ARGV[3]  PUBLISH, or SPUBLISH for sharded channels (publish.lua)
--
-- Returns 1 when the waiter was in the queue, 0 when it was not (never joined, already
-- dropped, or it took the lock).
local wasFirst = redis.call('LINDEX', KEYS[2], 0) == ARGV[1]
local removed = redis.call('LREM', KEYS[2], 1, ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if wasFirst and redis.call('EXISTS', KEYS[1]) == 0 then
  local first = redis.call('LINDEX', KEYS[2], 0)
  if first then
    publish(ARGV[3], ARGV[2], first)
  end
end
return removed
