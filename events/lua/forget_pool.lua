--[[
Forget which pairing pool a player's seek was in (events/lobby.py), unless the player has since
sought in another pool.

KEYS[1]  the player's seek pool (a string)
ARGV[1]  the pool the paired seek was in

Returns 1 if forgotten.
--]]
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
