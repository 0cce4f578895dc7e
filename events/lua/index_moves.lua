--[[
Index the moves of a game stored before the moves index existed (events/moves.py), from its log.

KEYS[1]  the game's log
KEYS[2]  the game's moves index (a list)
ARGV[1]  the log's length the entries were read at
ARGV[2]  the index's header
ARGV[3..] the versions of the envelopes that mark moves, in order

Writes only while the log is still that long and no index exists (an append since then, or another
reader, came first: nothing is written, and the next read builds it again). Returns 1 if written.
--]]
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) or redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('RPUSH', KEYS[2], ARGV[2])
for i = 3, #ARGV do
  redis.call('RPUSH', KEYS[2], ARGV[i])
end
return 1
