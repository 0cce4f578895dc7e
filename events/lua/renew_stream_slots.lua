--[[
Renew the leases of the stream slots one process holds for one owner (server/streams/slots.py):
each slot is (re)written with its new lapse time, since its stream is still open, and lapsed
slots of other processes are dropped.

KEYS[1]  the owner's sorted set of slots (slot -> when its lease lapses, epoch seconds)
ARGV[1]  now (epoch seconds)
ARGV[2]  when the renewed leases lapse (epoch seconds)
ARGV[3..] the slots

Returns how many slots the owner holds now.
--]]
local set = KEYS[1]
redis.call('ZREMRANGEBYSCORE', set, '-inf', ARGV[1])
for i = 3, #ARGV do
  redis.call('ZADD', set, ARGV[2], ARGV[i])
end
redis.call('EXPIREAT', set, math.ceil(tonumber(redis.call('ZRANGE', set, -1, -1, 'WITHSCORES')[2])))
return redis.call('ZCARD', set)
