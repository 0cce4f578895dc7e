--[[
Answer one invitation of a game waiting for its invited players: accept or decline, once.

KEYS[1]  the game's pending hash (events/invitations.py): status, deadline, open, p<seat>, s<seat>
KEYS[2]  the game's seat tokens hash (token hash -> seat)
KEYS[3]  the game's players hash (player id -> seat)
ARGV[1]  the seat
ARGV[2]  the player answering (must be the one invited to that seat); 't:<seat>' for the holder of
         a guest seat's token (a rematch), never written to the players hash
ARGV[3]  'accepted' or 'declined'; or 'expire' (the deadline loop, for no seat or player): cancel
         the game if its deadline has passed, answering {'closed', ...} then, else {'waiting'};
         or 'withdraw' (a rematch's offerer, checked by the caller): cancel a waiting game
ARGV[4]  now (epoch seconds)
ARGV[5]  the hash of the seat token made for the player, given '<seat>:<player>' when accepted
         (events/tokens.py: the player's, listed with its tokens)

Returns {'missing'} | {'not_yours'} | {'closed', status, reason} | {'answered', state}
      | {'declined'} | {'withdrawn'} | {'accepted', invitations still open} | {'start'}

'start' is answered once, to the last acceptance: that caller creates the game. A decline, or an
answer after the deadline, cancels the game for everyone.
--]]
local pending = KEYS[1]
local seat, player, answer, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
if redis.call('EXISTS', pending) == 0 then
  return {'missing'}
end
if answer ~= 'expire' and answer ~= 'withdraw' and redis.call('HGET', pending, 'p' .. seat) ~= player then
  return {'not_yours'}
end
local status = redis.call('HGET', pending, 'status')
if status == 'waiting' and tonumber(redis.call('HGET', pending, 'deadline')) <= now then
  redis.call('HSET', pending, 'status', 'cancelled', 'reason', 'invitation_expired', 'at', ARGV[4])
  status = 'cancelled'
end
if status ~= 'waiting' then
  return {'closed', status, redis.call('HGET', pending, 'reason') or ''}
end
if answer == 'expire' then
  return {'waiting'}
end
if answer == 'withdraw' then
  redis.call('HSET', pending, 'status', 'cancelled', 'reason', 'rematch_withdrawn', 'at', ARGV[4])
  return {'withdrawn'}
end
local state = redis.call('HGET', pending, 's' .. seat)
if state ~= 'invited' then
  return {'answered', state}
end
redis.call('HSET', pending, 's' .. seat, answer, 't' .. seat, ARGV[4])
if answer == 'declined' then
  redis.call('HSET', pending, 'status', 'cancelled', 'reason', 'invitation_declined', 'at', ARGV[4])
  return {'declined'}
end
if string.sub(player, 1, 2) == 't:' then
  redis.call('HSET', KEYS[2], ARGV[5], seat)
else
  redis.call('HSET', KEYS[2], ARGV[5], seat .. ':' .. player)
  redis.call('HSET', KEYS[3], player, seat)
end
local ttl = redis.call('TTL', pending)
if ttl > 0 then
  redis.call('EXPIRE', KEYS[2], ttl)
  redis.call('EXPIRE', KEYS[3], ttl)
end
local open = redis.call('HINCRBY', pending, 'open', -1)
if open > 0 then
  return {'accepted', open}
end
redis.call('HSET', pending, 'status', 'starting', 'at', ARGV[4])
return {'start'}
