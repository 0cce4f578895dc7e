--[[
Expire every key of a game nobody has moved in yet, unless someone moved meanwhile.

KEYS[1]      the game's 'unmoved' meta key (set before the game's log was created)
KEYS[2..]    every key of the game (keys.all_game_keys)
ARGV[1]      seconds to keep the game if nobody moves

Returns 1 when the keys now expire, 0 when the marker is gone (a first move kept the game, in the
moment between its creation and this call).
--]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
for i = 1, #KEYS do
  redis.call('EXPIRE', KEYS[i], ARGV[1])
end
return 1
