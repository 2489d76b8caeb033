-- Tells whether the given owner holds one of a key's permits: whether its lease, in the
-- sorted set of permits, has not expired by the Redis clock. Changes nothing.
--
-- KEYS[1]  the permits: a sorted set of owner tokens scored by lease expiry, as in
--          acquire-permit.lua
-- ARGV[1]  the owner token of the acquisition
--
-- Returns 1 when held, 0 otherwise.
--
-- pcall: a key overwritten with another type is a lost permit, not an error.
local score = redis.pcall('ZSCORE', KEYS[1], ARGV[1])
if type(score) ~= 'string' then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if tonumber(score) > now then
  return 1
end
return 0
