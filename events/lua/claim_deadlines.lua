--[[
Claim what is due in the deadline index, for one deadline loop, for a short while.

KEYS[1]  the index (sorted set: member -> when it is due, epoch seconds)
KEYS[2]  the leases (sorted set: claimed member -> when the claim lapses)
ARGV[1]  now (epoch seconds, the caller's clock: the same one the timeout is judged by)
ARGV[2]  how long a claim lasts (seconds)
ARGV[3]  how many members to claim at most

Returns {next, member1, due1, member2, due2, ...}: `next` is when the earliest member left in the
index is due ('' when it is empty), so the loop may sleep until then.

A claimed member leaves the index for the leases: another loop cannot claim it. The loop that
claimed it removes the lease when it has dealt with it (or puts it back in the index, due later).
A lease that lapses means its loop died meanwhile: the member goes back to the index, due at once,
unless the index already holds it again (a newer due time wins).
--]]
local index, leases = KEYS[1], KEYS[2]
local now, lease, count = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])

local lapsed = redis.call('ZRANGEBYSCORE', leases, '-inf', now, 'LIMIT', 0, count)
for _, member in ipairs(lapsed) do
  redis.call('ZREM', leases, member)
  redis.call('ZADD', index, 'NX', now, member)
end

local out = {''}
local due = redis.call('ZRANGEBYSCORE', index, '-inf', now, 'WITHSCORES', 'LIMIT', 0, count)
for i = 1, #due, 2 do
  redis.call('ZREM', index, due[i])
  redis.call('ZADD', leases, now + lease, due[i])
  out[#out + 1] = due[i]
  out[#out + 1] = due[i + 1]
end

local first = redis.call('ZRANGE', index, 0, 0, 'WITHSCORES')
if first[2] then out[1] = first[2] end
return out
