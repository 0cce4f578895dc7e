--[[
Take RQ jobs that have not started off the queue's schedule and the queue (workers/queues.py).

KEYS: the queue's scheduled registry (zset), the queue (list), then one job hash per id
ARGV: the job ids, in KEYS' order from KEYS[3]
A job taken off the schedule or the queue had not started: its data goes too. A running job
is left alone (it may be the very job cancelling its wait's jobs).
--]]
local removed = 0
for i, id in ipairs(ARGV) do
  local n = redis.call('ZREM', KEYS[1], id) + redis.call('LREM', KEYS[2], 0, id)
  if n > 0 then
    redis.call('DEL', KEYS[i + 2])
    removed = removed + 1
  end
end
return removed
