--[[
Everything needed to rebuild a game's state at a version, in one round trip: the nearest
snapshot at or below it and the events after that snapshot up to the version.

KEYS[1]  the game's log (stream, entry ids "<version>-0")
KEYS[2]  the game's snapshots (a hash: "<engine fingerprint>:<version>" -> snapshot JSON)
ARGV[1]  the version wanted (0: the latest)
ARGV[2]  the snapshot interval N (snapshots sit at multiples of N)
ARGV[3]  the engine fingerprint (snapshots taken by another engine are never used)

Returns {latest, version, snapshot version, snapshot JSON or '', envelope JSON...};
version is -1 when the wanted version is past the latest.
--]]
local latest = redis.call('XLEN', KEYS[1])
local target = tonumber(ARGV[1])
if target == 0 then target = latest end
if target > latest then return {latest, -1, 0, ''} end

local every = tonumber(ARGV[2])
local at = target - (target % every)
local snapshot = false
while at > 0 do
  snapshot = redis.call('HGET', KEYS[2], ARGV[3] .. ':' .. at)
  if snapshot then break end
  at = at - every
end
if not snapshot then
  at = 0
  snapshot = ''
end

local out = {latest, target, at, snapshot}
if target > at then
  local entries = redis.call('XRANGE', KEYS[1], (at + 1) .. '-0', target .. '-0')
  for i = 1, #entries do out[#out + 1] = entries[i][2][2] end
end
return out
