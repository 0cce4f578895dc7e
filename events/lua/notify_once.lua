--[[
Deliver a notification to a player's inbox once, by its id (workers/notify.py), and record in the
same step that its e-mail and webhook are owed (the outbox, events/inbox.py) when the player has a
webhook URL or an e-mail may be owed: a process that dies right after leaves the debt for a
deadline loop. Answers the inbox entry id and the player's webhook URL ('' for none), or false
when it was sent before.

KEYS: notified (zset), inbox (stream), player (hash), outbox (hash); all in the player's slot
ARGV: notification id, now (epoch seconds), body JSON, inbox size, forget-before (epoch seconds),
      '1' when an e-mail or a push may be owed, else '0'
--]]
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 0 then
  return false
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[5])
local entry = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', 'data', ARGV[3])
local url = redis.call('HGET', KEYS[3], 'webhook_url')
if not url then url = '' end
if url ~= '' or ARGV[6] == '1' then
  redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
end
return {entry, url}
