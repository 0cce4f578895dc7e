--[[
Bring an archived game back into Redis: its log, moves index and chat, then delete its stub, all
at once (a reader sees the archive or the log, never neither, never half a log).

KEYS[1]  the game's stub (keys.archived)
KEYS[2]  the game's log
KEYS[3]  the game's moves index
KEYS[4], KEYS[5]  the game's chat channels (players, spectators)
ARGV[1]  the head hash of the archived record (the stub must name it)
ARGV[2]  the moves index's header
ARGV[3]  one character per event: '1' when it goes to the moves index too
ARGV[4], ARGV[5]  how many archived messages each chat channel has
ARGV[6..] the envelopes in version order, then each channel's messages as id, data pairs

Messages written to a channel since the game was archived stay, after the archived ones.
Returns 'restored', or 'not_archived' (nothing written).
--]]
if redis.call('HGET', KEYS[1], 'head_hash') ~= ARGV[1] then return 'not_archived' end
local events = string.len(ARGV[3])
local first = 6
if redis.call('XLEN', KEYS[2]) == 0 then
  redis.call('DEL', KEYS[3])
  redis.call('RPUSH', KEYS[3], ARGV[2])
  for i = 1, events do
    redis.call('XADD', KEYS[2], i .. '-0', 'e', ARGV[first + i - 1])
    if string.sub(ARGV[3], i, i) == '1' then redis.call('RPUSH', KEYS[3], i) end
  end
end
local at = first + events
for c = 1, 2 do
  local count = tonumber(ARGV[3 + c])
  if count > 0 then
    local later = {}
    local last = ARGV[at + 2 * (count - 1)]
    for _, entry in ipairs(redis.call('XRANGE', KEYS[3 + c], '(' .. last, '+')) do later[#later + 1] = entry end
    redis.call('DEL', KEYS[3 + c])
    for m = 0, count - 1 do
      redis.call('XADD', KEYS[3 + c], ARGV[at + 2 * m], 'data', ARGV[at + 2 * m + 1])
    end
    for _, entry in ipairs(later) do redis.call('XADD', KEYS[3 + c], entry[1], unpack(entry[2])) end
  end
  at = at + 2 * count
end
redis.call('DEL', KEYS[1])
return 'restored'
