-- The holder's description, read one way everywhere: LockScripts puts this file in front
-- of every script that tells a caller or an operator who holds a lock.
--
-- holder_of(owner)
--   owner  an owner token as the store keeps it (a lock key's value, a read hold's or a
--          permit's member), or anything else
--   Runs no Redis command.
--   Returns what follows the token's first U+001F: the holder's description
--   (instance, thread, lock name, time; io.distlock.store.LockHolder), or false when the
--   token carries none or owner is no string.
--
-- Never returns the part before the separator, the owner's secret: whoever knows it can
-- release or renew the lock.
local function holder_of(owner)
  if type(owner) ~= 'string' then
    return false
  end
  local at = string.find(owner, '\31', 1, true)
  return at and string.sub(owner, at + 1) or false
end
