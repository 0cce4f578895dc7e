--[[
Keep a game's folded clock when it is newer, and claim the wait it names, once: a wait is
named by its first version, which only grows (workers/turns.py). Answers the previous wait and
its seat when this call claimed a new one, else false.

KEYS: clock (hash: v, json), turn (hash: wait, seat); both in the game's slot
ARGV: version folded, clock JSON, wait to claim ('' = claim nothing), seat waited for ('' = none)
--]]
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '-1')
if tonumber(ARGV[1]) > v then
  redis.call('HSET', KEYS[1], 'v', ARGV[1], 'json', ARGV[2])
end
if ARGV[3] == '' then
  return false
end
local w = tonumber(redis.call('HGET', KEYS[2], 'wait') or '-1')
if tonumber(ARGV[3]) <= w then
  return false
end
local seat = redis.call('HGET', KEYS[2], 'seat') or ''
redis.call('HSET', KEYS[2], 'wait', ARGV[3], 'seat', ARGV[4], 'mover', seat)
return {tostring(w), seat}
