-- The Redis clock, read one way everywhere: LockScripts puts this file in front of every
-- script that reads the time, and of fencing.lua.
--
-- server_time()
--   Runs TIME, one Redis command.
--   Returns the server's clock in milliseconds (rounded down), then in microseconds, both
--   from that one reply: `local now = server_time()` keeps the milliseconds, and
--   `local now, micros = server_time()` gets both without a second TIME.
--
-- server_micros()
--   Runs TIME, one Redis command.
--   Returns the server's clock in microseconds, for a script that reads the clock only
--   for its fencing token (fencing.lua).
--
-- Leases and places are in milliseconds, as Redis expires keys (PX, PEXPIREAT, PTTL);
-- fencing tokens are in microseconds (fencing.lua).
local function server_time()
  local time = redis.call('TIME')
  local seconds, micros = tonumber(time[1]), tonumber(time[2])
  return seconds * 1000 + math.floor(micros / 1000), seconds * 1000000 + micros
end

local function server_micros()
  local _, micros = server_time()
  return micros
end
