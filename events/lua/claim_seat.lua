--[[
A guest's seat claimed by an account (events/roster.py claim_seat), in one step, so that two
claims at once never both win.

KEYS[1]      the game's seat_players hash (player id -> seat)
ARGV[1]      the claiming account
ARGV[2]      the seat
ARGV[3]      the browser's own passwordless player holding the seat now ('' for none): its hold
             passes to the account

Returns 1 when claimed; 0 when the account holds a seat of the game already, or someone else
holds this one.
--]]
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
  if held[i] == ARGV[1] then return 0 end
  if held[i + 1] == ARGV[2] and held[i] ~= ARGV[3] then return 0 end
end
if ARGV[3] ~= '' then redis.call('HDEL', KEYS[1], ARGV[3]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
