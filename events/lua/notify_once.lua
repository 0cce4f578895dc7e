--[[
Deliver a notification to a player's inbox once, by its id (workers/notify.py); answers
the inbox entry id and the player's webhook URL ('' for none), or false when it was sent before.

KEYS: notified (zset), inbox (stream), player (hash); all in the player's slot
ARGV: notification id, now (epoch seconds), body JSON, inbox size, forget-before (epoch seconds)
--]]
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 0 then
  return false
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[5])
local entry = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', 'data', ARGV[3])
local url = redis.call('HGET', KEYS[3], 'webhook_url')
if not url then url = '' end
return {entry, url}
