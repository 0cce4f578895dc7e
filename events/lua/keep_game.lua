--[[
Keep a game for good once someone has moved in it (or it ended): remove the expiry its creation set.

KEYS[1]      the game's 'unmoved' meta key (JSON list of the owners whose cap it counts against)
KEYS[2..]    every key of the game (keys.all_game_keys)

Returns the owners JSON when the game was unmoved until now, false when it was kept already.
--]]
local owners = redis.call('GET', KEYS[1])
if not owners then
  return false
end
for i = 2, #KEYS do
  redis.call('PERSIST', KEYS[i])
end
redis.call('DEL', KEYS[1])
return owners
