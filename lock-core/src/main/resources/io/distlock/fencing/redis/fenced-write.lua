-- A write fenced by a fencing token: runs only if the token is at least the last one
-- accepted for the key, so that the write of a holder whose lock expired meanwhile (a
-- pause, a partition) cannot undo a later holder's.
--
-- KEYS[1]  the data key
-- KEYS[2]  its fence key: the last token accepted for the data key
-- ARGV[1]  the writer's fencing token, in decimal (no sign, no leading zeros)
-- ARGV[2]  the write: 'set', 'hset' or 'del'
-- ARGV[3]  for 'set' the value; for 'hset' the field
-- ARGV[4]  for 'hset' the value
--
-- Returns {1} when written, {0, last accepted token} when the token is stale.
local token = ARGV[1]
local last = redis.call('GET', KEYS[2])
-- Compared as decimal strings: exact for every long, which Lua's doubles are not.
if last and (#token < #last or (#token == #last and token < last)) then
	return {0, last}
end
local write = ARGV[2]
if write == 'set' then
	redis.call('SET', KEYS[1], ARGV[3])
elseif write == 'hset' then
	redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
else
	redis.call('DEL', KEYS[1])
end
-- Kept after a delete too: a stale holder must not write the key back.
redis.call('SET', KEYS[2], token)
return {1}
