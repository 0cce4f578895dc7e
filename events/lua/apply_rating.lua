--[[
Set a player's rating to what a finished game makes it, once per game, if it is still the rating
the change was planned from (a compare-and-set: events/ratings.py rebases a stale change).

KEYS[1]  the player's rating (string JSON)
KEYS[2]  the player's rated games (hash: game id -> the rating that game left)
ARGV[1]  the game id
ARGV[2]  the rating JSON expected now ('' = none yet)
ARGV[3]  the new rating JSON

Returns {'done', ''} (the game counted already) | {'stale', current rating} | {'applied', ''}
--]]
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then
  return {'done', ''}
end
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[2] then
  return {'stale', current}
end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return {'applied', ''}
