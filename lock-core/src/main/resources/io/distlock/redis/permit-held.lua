-- Tells whether the given owner holds one of a key's permits (its lease has not expired
-- by the Redis clock). Changes nothing.
--
-- KEYS[1]  the permits, as in acquire-permit.lua
-- ARGV[1]  the owner token of the acquisition
--
-- Returns 1 when held, 0 otherwise.
--
-- pcall: a key overwritten with another type is a lost permit, not an error.
local score = redis.pcall('ZSCORE', KEYS[1], ARGV[1])
if type(score) ~= 'string' then
  return 0
end
local now = server_time()
if tonumber(score) > now then
  return 1
end
return 0
