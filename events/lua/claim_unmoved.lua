--[[
Count a new game against its creator's cap of games nobody has moved in yet, if there is room (or,
the same way, a new lobby table against its opener's cap of open tables: events/lobby.py).

KEYS[1]  the creator's sorted set of unmoved games (game id -> when it stops counting)
ARGV[1]  the game id
ARGV[2]  now (epoch seconds)
ARGV[3]  when the new game stops counting (epoch seconds)
ARGV[4]  the cap

Returns {1, count after} when counted, {0, count} when the cap is reached. Entries whose time has
passed (their game expired) are forgotten first.
--]]
local set = KEYS[1]
redis.call('ZREMRANGEBYSCORE', set, '-inf', ARGV[2])
local count = redis.call('ZCARD', set)
if count >= tonumber(ARGV[4]) then
  return {0, count}
end
redis.call('ZADD', set, ARGV[3], ARGV[1])
redis.call('EXPIREAT', set, math.ceil(tonumber(redis.call('ZRANGE', set, -1, -1, 'WITHSCORES')[2])))
return {1, count + 1}
