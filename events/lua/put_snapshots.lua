--[[
Keep a game's snapshots (a disposable cache, events/snapshots.py), at most a few: the newest.

KEYS[1]  the game's snapshots (a hash: "<engine fingerprint>:<version>" -> snapshot JSON)
ARGV[1]  how many to keep at most
ARGV[2]  the engine fingerprint of today (another engine's snapshots go first: never used again)
ARGV[3..] field, snapshot pairs to add

A game's states are folded from its nearest snapshot below (or from its start): keeping only the
newest bounds its memory while the latest state, the one every command needs, stays one tail away.
--]]
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
local kept = tonumber(ARGV[1])
if redis.call('HLEN', KEYS[1]) <= kept then return 0 end
local names = redis.call('HKEYS', KEYS[1])
local prefix = ARGV[2] .. ':'
local function rank(name)
  local version = tonumber(string.match(name, ':(%d+)$')) or 0
  if string.sub(name, 1, #prefix) == prefix then return version end
  return -1 - (1 / (version + 2))                   -- another engine's: below every one of today's
end
table.sort(names, function(a, b) return rank(a) > rank(b) end)
local gone = 0
for i = kept + 1, #names do
  redis.call('HDEL', KEYS[1], names[i])
  gone = gone + 1
end
return gone
