--[[
A deadline loop has dealt with a member it claimed (events/lua/claim_deadlines.lua).

KEYS[1]  the index (sorted set: member -> when it is due)
KEYS[2]  the leases (sorted set: claimed member -> when the claim lapses)
ARGV[1]  the member
ARGV[2]  when it is due again (epoch seconds), or '' when it is done
ARGV[3]  'later' to move it only later if it is indexed again meanwhile (the follow-up index,
         events/followup.py, and a player's notification outbox), else absent or ''

Returns 1 if the lease was still held, else 0. The member is indexed again only while its lease
is held: if the member was dropped meanwhile (a new wait began), it stays dropped.
--]]
local held = redis.call('ZREM', KEYS[2], ARGV[1])
if held == 1 and ARGV[2] ~= '' then
  if ARGV[3] == 'later' then
    redis.call('ZADD', KEYS[1], 'GT', tonumber(ARGV[2]), ARGV[1])
  else
    redis.call('ZADD', KEYS[1], tonumber(ARGV[2]), ARGV[1])
  end
end
return held
