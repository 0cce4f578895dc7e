--[[
A seat's turn came and its conditional replies were dealt with (events/conditionals.py): tell the
seat what became of them, and drop them, unless the seat has queued others meanwhile.

KEYS[1]  the game's conditional replies (hash: seat -> JSON)
KEYS[2]  the game's outcomes of conditional replies (hash: seat -> JSON)
ARGV[1]  the seat
ARGV[2]  the replies as they were read (JSON), dropped only if still the same
ARGV[3]  the outcome (JSON)

Returns 1 if the replies were dropped.
--]]
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return 1
end
return 0
