-- The holder's description, read one way everywhere: LockScripts puts this file in front
-- of every script that tells a caller or an operator who holds a lock.
--
-- holder_of(owner)
--   owner  an owner token as stored (a lock key's value, a read hold's or permit's member)
--   Runs no Redis command.
--   Returns what follows the token's first U+001F, the holder's description (LockHolder),
--   or false when there is none or owner is no string; never the secret before it.
local function holder_of(owner)
  if type(owner) ~= 'string' then
    return false
  end
  local at = string.find(owner, '\31', 1, true)
  return at and string.sub(owner, at + 1) or false
end
