-- The fencing-token rule, in one place: LockScripts puts this file (after time.lua) in
-- front of every script that grants a lock, a read hold or a permit.
--
-- fencing_token(counter, retention, counted, now)
--   counter    the key's fencing counter: "T" (the last token, granted at clock T) or "T:C"
--              (the last token T, granted at clock C); gone before the key's first grant
--   retention  how long the counter is kept after this grant, in milliseconds (ARGV)
--   counted    '0' for tokens from the counter alone (Redlock's nodes)
--   now        the server's clock in microseconds, read in this call (time.lua)
--   Runs one SET ... GET, and a second SET only when the token is not the clock.
--   Returns the token and the clock it was granted at (now), both in microseconds.
--
-- Why the token is derived so: docs/how-it-works.md, "Inside the scripts".
local function fencing_token(counter, retention, counted, now)
  local value = redis.call('SET', counter, string.format('%d', now), 'PX', retention, 'GET')
  local token = now
  if value then
    local last, clock = string.match(value, '^(%d+):(%d+)$')
    if last then
      last = tonumber(last)
      clock = tonumber(clock)
    else
      last = tonumber(value) or 0
      clock = last
    end
    -- Redlock's nodes count; every other server adds the time its clock advanced.
    if counted == '0' then
      token = math.max(last + 1, now - now % 100000)
    elseif now >= clock then
      token = last + math.max(1, now - clock)
    else
      -- A clock behind the last grant's (stepped back, a promoted replica's): runs ahead.
      local behind = clock - now
      local retained = tonumber(retention) * 1000 - 1000
      if behind < 1000000 then
        token = last + 1000000 - behind
      elseif behind < retained then
        token = last + retained - behind
      else
        token = last + 1
      end
    end
  end
  if token ~= now then
    if counted == '0' then
      redis.call('SET', counter, string.format('%d', token), 'PX', retention)
    else
      redis.call('SET', counter, string.format('%d:%d', token, now), 'PX', retention)
    end
  end
  return token, now
end
