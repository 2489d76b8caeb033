-- The fault suite's storage: every operation of every client goes through this one
-- script on one Redis server that is never faulted, so each operation is atomic and gets
-- its place in one global order (the sequence number).
--
-- ARGV[1]  the operation:
--            enter, exit      a holder entering / leaving its critical section on a key
--            read, write      the fenced counter of the key: refused when the token is lower
--                             than the highest one accepted for the key so far
--            plain-read, plain-write
--                             the unfenced counter of the key: never refused
--            anything else    a mark recorded by the test (kill, pause, resume, restart...)
-- ARGV[2]  the lock key the data belongs to ('-' for marks)
-- ARGV[3]  the holder (acquisition id; for marks, the client or server)
-- ARGV[4]  the fencing token (0 for marks)
-- ARGV[5]  for writes: the value the holder read before
-- ARGV[6]  for writes: the value to write
--
-- Returns {sequence number, server time in microseconds, accepted (1/0), counter value
-- before the operation}. Appends "seq micros op key holder token accepted value duplicate
-- expected written" to the list 'log'.
local op, key, holder, token = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local seq = redis.call('INCR', 'seq')
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local accepted, value, duplicate = 1, 0, 0
if op == 'enter' then
  redis.call('HSET', 'insec:' .. key, holder, token)
elseif op == 'exit' then
  redis.call('HDEL', 'insec:' .. key, holder)
elseif op == 'read' or op == 'write' then
  local fence = 'fence:' .. key
  local max = tonumber(redis.call('HGET', fence, 'max') or '0')
  if tonumber(token) < max then
    accepted = 0
  else
    if tonumber(token) == max and redis.call('HGET', fence, 'holder') ~= holder then
      duplicate = 1
    end
    redis.call('HSET', fence, 'max', token, 'holder', holder)
    value = tonumber(redis.call('GET', 'fcounter:' .. key) or '0')
    if op == 'write' then
      redis.call('SET', 'fcounter:' .. key, ARGV[6])
    end
  end
elseif op == 'plain-read' then
  value = tonumber(redis.call('GET', 'pcounter:' .. key) or '0')
elseif op == 'plain-write' then
  value = tonumber(redis.call('GET', 'pcounter:' .. key) or '0')
  redis.call('SET', 'pcounter:' .. key, ARGV[6])
end
redis.call('RPUSH', 'log', table.concat({string.format('%d', seq), string.format('%d', now), op, key, holder,
    token, accepted, string.format('%d', value), duplicate, ARGV[5] or '', ARGV[6] or ''}, ' '))
return {seq, now, accepted, value}
