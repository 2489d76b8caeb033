-- The fencing-token rule, in one place: LockScripts puts this file (after time.lua) in
-- front of every script that grants a lock, a read hold or a permit.
--
-- fencing_token(counter, retention, counted, now)
--   counter     the key's fencing counter: "T" (the last token, granted when the clock of
--               the server read T microseconds) or "T:C" (the last token T, granted when
--               the clock read C, less than T); gone before the key's first grant
--   retention   how long the counter is kept after this grant, in milliseconds (ARGV)
--   counted     '0' for tokens from the counter alone (Redlock's nodes, below)
--   now         the server's clock in microseconds, read by the calling script in this
--               call (server_time or server_micros, time.lua)
--   Runs one SET ... GET, which writes the clock as the token and reads the last one, and
--   a second SET only when the token is not the clock (a lead, or Redlock's nodes).
--   Returns the token and the clock it was granted at (now), both in microseconds.
--
-- The scripts that call it: acquire, acquire-fair, acquire-read, acquire-permit and
-- handover, so that they all hand out tokens the same way.
--
-- The token advances with the server's clock from the last grant: T + (now - C). On one
-- server that is strictly increasing, and it is the clock itself until the clock steps
-- back. Across a failover that loses the last grants (asynchronous replication), the new
-- primary starts from the replicated T and C, so its tokens pass those lost grants as
-- soon as its clock passes the old primary's clock at them: the clocks of the old and the
-- new primary must agree to within the failover's duration.
--
-- A clock behind C (a clock stepped back, or a replica promoted whose clock is behind the
-- old primary's) gets T + (J - (C - now)), still increasing with this clock, with J one
-- second while it is behind by less than a second, and the counter's retention less one
-- millisecond while it is behind by less than that: then even the first grant after the
-- failover passes a lost one (a failover takes longer than a second). Behind by more than
-- the retention, the token is T + 1. The grant then records its own clock as C: the token
-- runs ahead of the clock ("the counter's lead"), which the caller is told (the clock is
-- returned) so that it can report a lead a lost counter would not survive.
--
-- With counted '0' the token is T + 1, from the counter alone, but never below the clock
-- rounded down to a tenth of a second; a counter that is gone (its retention passed since
-- the last grant, or lost by a restart) starts again from the clock. For masters without
-- replicas, such as Redlock's nodes, whose counters this keeps in step, so that Redlock
-- need not raise them after each lock: the counters fall behind the clocks, and nodes
-- whose clocks read the same tenth of a second hand out the same token. A node that
-- restarts empty, or from a snapshot older than its last grants, hands out at least its
-- clock less a tenth of a second, so past every token handed out before it went down as
-- long as the clocks of the nodes differ by less than the time since, less that tenth
-- (docs/redlock.md).
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
    if counted == '0' then
      token = math.max(last + 1, now - now % 100000)
    elseif now >= clock then
      token = last + math.max(1, now - clock)
    else
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
