-- Write a product's stock for the holder of the product's lock, unless a holder with a
-- later fencing token has already written it: the write of a holder whose lock expired
-- meanwhile (a long GC pause, a slow network) is rejected instead of undoing newer writes.
--
-- KEYS[1]  the product's stock
-- KEYS[2]  the last fencing token accepted for the product
-- KEYS[3]  the count of the product's rejected (stale) writes
-- ARGV[1]  the new stock
-- ARGV[2]  the writer's fencing token, in decimal (no sign, no leading zeros)
--
-- Returns {1} when written, {0, last accepted token} when rejected.
local token = ARGV[2]
local last = redis.call('GET', KEYS[2])
-- Compared as decimal strings: exact for every long, which Lua's doubles are not.
if last and (#token < #last or (#token == #last and token < last)) then
	redis.call('INCR', KEYS[3])
	return {0, last}
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], token)
return {1}
