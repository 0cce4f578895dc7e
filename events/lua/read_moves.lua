--[[
A game's moves index (events/moves.py) with the game's version, in one round trip.

KEYS[1]  the game's log
KEYS[2]  the game's moves index: its header, then one element per indexed envelope, either the
         envelope's version (what appends write) or, as older versions wrote, the envelope itself

Returns {version, 1 if the index exists else 0, envelope JSON...}: versions are read from the log.
--]]
local out = {redis.call('XLEN', KEYS[1]), redis.call('EXISTS', KEYS[2])}
local entries = redis.call('LRANGE', KEYS[2], 1, -1)
for i = 1, #entries do
  local entry = entries[i]
  if string.sub(entry, 1, 1) == '{' then
    out[#out + 1] = entry
  else
    local found = redis.call('XRANGE', KEYS[1], entry .. '-0', entry .. '-0')
    out[#out + 1] = found[1][2][2]
  end
end
return out
