--[[
Delete what an archived game no longer needs in Redis, once its stub says where its record lives:
the log, snapshots, moves index, chat, presence and the markers of a game nobody moved in.
Nothing is deleted unless Redis still holds exactly what was archived.

KEYS[1]  the game's stub (keys.archived), written with the record's head hash before this runs
KEYS[2]  the game's head (a hash: version, hash)
KEYS[3]  the game's log
KEYS[4]  the game's follow-up marker: follow-up still owed means the game is not done with
KEYS[5], KEYS[6]  the game's chat channels (players, spectators)
KEYS[7..] the other keys to delete (snapshots, moves index, presence, unmoved marker)
ARGV[1]  the head hash of the archived record
ARGV[2]  its version
ARGV[3], ARGV[4]  the id of the last message archived of each chat channel ('' for none): a channel
         still in Redis must end there

Returns 'dropped', or why nothing was deleted: 'no_stub', 'head_moved', 'log_moved',
'follow_up_owed', 'chat_moved' (a message came after the archive was written: archive again).
--]]
if redis.call('HGET', KEYS[1], 'head_hash') ~= ARGV[1] then return 'no_stub' end
local head = redis.call('HGET', KEYS[2], 'hash')
if head and head ~= ARGV[1] then return 'head_moved' end
local version = redis.call('XLEN', KEYS[3])
if version ~= 0 and version ~= tonumber(ARGV[2]) then return 'log_moved' end
if redis.call('EXISTS', KEYS[4]) == 1 then return 'follow_up_owed' end
for i = 5, 6 do
  local top = redis.call('XREVRANGE', KEYS[i], '+', '-', 'COUNT', 1)
  local last = ''
  if #top > 0 then last = top[1][1] end
  if last ~= '' and last ~= ARGV[i - 2] then return 'chat_moved' end
end
redis.call('DEL', KEYS[3], KEYS[5], KEYS[6], unpack(KEYS, 7))
return 'dropped'
