--[[
Append a batch of events to one game's log: all of it or none of it.

KEYS[1]  the game's log (a stream; entry ids are "<version>-0", so XLEN is the version)
KEYS[2]  the game's head (a hash: version, hash of the last event)
KEYS[3]  the command's idempotency record (a placeholder key in the same slot when it has none)
ARGV[1]  the version the writer expects the game to be at
ARGV[2]  the hash the writer expects the last event to have (64 zeros for a new game)
ARGV[3]  the hash of the batch's last event (the new head)
ARGV[4]  the idempotency record to keep, or '' for none
ARGV[5]  how long to keep it, in seconds
ARGV[6..] the envelopes, canonical JSON, in version order

Returns {'ok', new version} | {'duplicate', record} | {'conflict', current version}
      | {'broken', current head hash}

Every check runs before the first write; a script that has started writing is not cut short by
Redis (not even by maxmemory), and scripts run one at a time: no reader ever sees half a batch.
--]]
local log, head, idem = KEYS[1], KEYS[2], KEYS[3]
local has_record = ARGV[4] ~= ''

if has_record then
  local prior = redis.call('GET', idem)
  if prior then return {'duplicate', prior} end
end

local version = redis.call('XLEN', log)
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end

local last = redis.call('HGET', head, 'hash')
if not last then last = string.rep('0', 64) end
if last ~= ARGV[2] then return {'broken', last} end

for i = 6, #ARGV do
  version = version + 1
  redis.call('XADD', log, version .. '-0', 'e', ARGV[i])
end
redis.call('HSET', head, 'version', version, 'hash', ARGV[3])
if has_record then redis.call('SET', idem, ARGV[4], 'EX', ARGV[5]) end
return {'ok', version}
