-- Tells whether the given owner has a read hold of the key whose lease has not expired.
--
-- KEYS[1]  the read holds: the readers' owner tokens, scored by lease expiry (Redis ms)
-- ARGV[1]  the owner token of the read hold
--
-- Returns 1 when held, 0 when not.
--
-- pcall: a key overwritten with another type holds no reader.
local expiry = redis.pcall('ZSCORE', KEYS[1], ARGV[1])
if type(expiry) ~= 'string' then
  return 0
end
local now = server_time()
return (tonumber(expiry) > now) and 1 or 0
