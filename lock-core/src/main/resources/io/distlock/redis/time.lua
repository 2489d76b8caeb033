-- The Redis clock, read one way everywhere: LockScripts puts this file in front of every
-- script that reads the time, and of fencing.lua.
--
-- server_time()
--   Runs TIME, one Redis command.
--   Returns the server's clock in milliseconds (rounded down), then in microseconds, from
--   that one reply: `local now, micros = server_time()` needs no second TIME.
--
-- server_micros()
--   Runs TIME, one Redis command.
--   Returns the server's clock in microseconds, for a script that needs only a token.
local function server_time()
  local time = redis.call('TIME')
  local seconds, micros = tonumber(time[1]), tonumber(time[2])
  return seconds * 1000 + math.floor(micros / 1000), seconds * 1000000 + micros
end

local function server_micros()
  local _, micros = server_time()
  return micros
end
