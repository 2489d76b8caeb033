-- Tells whether the given owner has a read hold of the key whose lease has not expired.
--
-- KEYS[1]  the read holds: a sorted set of the readers' owner tokens, scored by the Redis
--          time in milliseconds at which each read lease expires
-- ARGV[1]  the owner token of the read hold
--
-- Returns 1 when held, 0 when not.
--
-- pcall: a key overwritten with another type holds no reader.
local expiry = redis.pcall('ZSCORE', KEYS[1], ARGV[1])
if type(expiry) ~= 'string' then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
return (tonumber(expiry) > now) and 1 or 0
