--[[
The follow-up of a game's changes up to a version is done (events/followup.py): clear the game's
marker, unless an append since has set it to a later version (that one's follow-up is still owed).

KEYS[1]  the game's follow-up marker (a string: the version owed)
ARGV[1]  the version whose follow-up is done

Returns 1 if the marker was cleared.
--]]
local owed = redis.call('GET', KEYS[1])
if owed and tonumber(owed) <= tonumber(ARGV[1]) then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
