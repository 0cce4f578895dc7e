--[[
Take one of an owner's stream slots (a client address or a token, server/streams/slots.py) if
there is room. Every front process counts its open streams here, each slot held under a lease
its process renews; the slots of a process that died lapse with their leases.

KEYS[1]  the owner's sorted set of slots (slot -> when its lease lapses, epoch seconds)
ARGV[1]  the slot (holder process and stream)
ARGV[2]  now (epoch seconds)
ARGV[3]  when its lease lapses (epoch seconds)
ARGV[4]  the cap

Returns 1 when taken, 0 when the owner holds as many as the cap. Lapsed slots are dropped first.
--]]
local set = KEYS[1]
redis.call('ZREMRANGEBYSCORE', set, '-inf', ARGV[2])
if redis.call('ZCARD', set) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', set, ARGV[3], ARGV[1])
redis.call('EXPIREAT', set, math.ceil(tonumber(redis.call('ZRANGE', set, -1, -1, 'WITHSCORES')[2])))
return 1
