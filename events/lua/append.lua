--[[
Append a batch of events to one game's log: all of it or none of it, with what the append owes.

KEYS[1]  the game's log (a stream; entry ids are "<version>-0", so XLEN is the version)
KEYS[2]  the game's head (a hash: version, hash of the last event)
KEYS[3]  the command's idempotency record (a placeholder key in the same slot when it has none)
KEYS[4]  the game's follow-up marker (a string: the version whose follow-up is owed, events/followup.py)
KEYS[5]  the game's moves index (a list: its header, then the versions of the envelopes it keeps, events/moves.py)
KEYS[6]  the game's 'unmoved' marker (its expiry is the game's while nobody has moved in it, events/unmoved.py)
KEYS[7]  the game's conditional replies (a hash: seat -> the replies it queued, events/conditionals.py)
KEYS[8]  on a single Redis, the follow-up index shard of the game (events/followup.py); absent on a
         Cluster, where it lies in another slot and the caller indexes the game before the append
ARGV[1]  the version the writer expects the game to be at
ARGV[2]  the hash the writer expects the last event to have (64 zeros for a new game)
ARGV[3]  the hash of the batch's last event (the new head)
ARGV[4]  the idempotency record to keep, or '' for none
ARGV[5]  how long to keep it, in seconds
ARGV[6]  '1' when the batch owes follow-up work (the outbox: recorded with the events), else ''
ARGV[7]  one character per envelope: '1' when it goes to the moves index too, else '0'
ARGV[8]  the moves index's header (its first element, written with a new game's first batch)
ARGV[9]  with KEYS[8]: when a deadline loop may look at the game's follow-up (its score, moved
         only later: ZADD GT), else ''
ARGV[10] the game id (its member of the follow-up index)
ARGV[11] the seat whose conditional replies go (it moved itself), or ''
ARGV[12..] the envelopes, canonical JSON, in version order

Returns {'ok', new version, seat, replies, seat, replies...: the replies still queued, for the
follow-up to look at} | {'duplicate', record} | {'conflict', current version}
      | {'broken', current head hash}

Every check runs before the first write; a script that has started writing is not cut short by
Redis (not even by maxmemory), and scripts run one at a time: no reader ever sees half a batch.
The moves index is kept only for games it covers from their creation (older games have none and
are indexed when first read, events/moves.py), so it never holds half a game.
In a game nobody has moved in yet (its creation, a bot's move, a timeout), what the append wrote
without an expiry gets the game's: the debt's marker, set anew, would otherwise outlive the game,
and a creation whose process died before arming the game's expiry would stay for good. (The
idempotency record keeps its own time: only a player's move has one, and that move keeps the game.)
--]]
local log, head, idem, follow, moves, unmoved = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local has_record = ARGV[4] ~= ''
local FIRST = 12

if has_record then
  local prior = redis.call('GET', idem)
  if prior then return {'duplicate', prior} end
end

local version = redis.call('XLEN', log)
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end

local last = redis.call('HGET', head, 'hash')
if not last then last = string.rep('0', 64) end
if last ~= ARGV[2] then return {'broken', last} end

local indexed = version == 0 or redis.call('EXISTS', moves) == 1
if version == 0 then redis.call('DEL', moves); redis.call('RPUSH', moves, ARGV[8]) end
for i = FIRST, #ARGV do
  version = version + 1
  redis.call('XADD', log, version .. '-0', 'e', ARGV[i])
  if indexed and string.sub(ARGV[7], i - FIRST + 1, i - FIRST + 1) == '1' then
    redis.call('RPUSH', moves, version)
  end
end
redis.call('HSET', head, 'version', version, 'hash', ARGV[3])
if has_record then redis.call('SET', idem, ARGV[4], 'EX', ARGV[5]) end
if ARGV[6] ~= '' then redis.call('SET', follow, version) end
if ARGV[9] ~= '' then redis.call('ZADD', KEYS[8], 'GT', ARGV[9], ARGV[10]) end
if ARGV[11] ~= '' then redis.call('HDEL', KEYS[7], ARGV[11]) end
local left = redis.call('PTTL', unmoved)
if left > 0 then
  if redis.call('PTTL', log) == -1 then redis.call('PEXPIRE', log, left) end
  if redis.call('PTTL', head) == -1 then redis.call('PEXPIRE', head, left) end
  if redis.call('PTTL', moves) == -1 then redis.call('PEXPIRE', moves, left) end
  if redis.call('PTTL', follow) == -1 then redis.call('PEXPIRE', follow, left) end
end
local out = {'ok', version}
for _, part in ipairs(redis.call('HGETALL', KEYS[7])) do out[#out + 1] = part end
return out
