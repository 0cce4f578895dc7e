--[[
Keys of a game nobody has moved in, written after its expiry was set (chat, presence, snapshots),
expire with the game too: no later than its 'unmoved' marker, whose expiry is the game's
(events/unmoved.py). A key that expires sooner keeps its own expiry; a missing one is skipped.

KEYS[1]      the game's 'unmoved' meta key
KEYS[2]      the game's log
KEYS[3..]    every key of the game (keys.all_game_keys)

Returns 1 when the game is unmoved (the keys now expire with it), 0 when it is kept for good (its
log exists and the marker is gone: a first move or its end removed it, and it never comes back),
-1 when there is no expiry to follow (no marker and no log: not created yet, or gone already).
--]]
local left = redis.call('PTTL', KEYS[1])
if left == -2 then
  if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
  return -1
end
if left < 0 then return -1 end
for i = 3, #KEYS do
  local own = redis.call('PTTL', KEYS[i])
  if own == -1 or own > left then
    redis.call('PEXPIRE', KEYS[i], left)
  end
end
return 1
