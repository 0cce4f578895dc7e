--[[
Count one attempt against several bounds at once, counting first: so that of many attempts racing,
no more than each bound get through. Or give one counted attempt back.

KEYS[i]        a counter of attempts in a fixed window (one key per bound, all in one slot)
ARGV[1]        'count', or 'forgive' (take one attempt back from each counter that still exists)
ARGV[2i]       the bound of KEYS[i]: attempts allowed in the window
ARGV[2i+1]     its window, in seconds (starting at the window's first attempt)

Counting returns 0 when the attempt is counted and may go on; else the seconds until the window of
a full counter ends, and the attempt is taken back from every counter (a refused attempt checks
nothing, so it does not count).
--]]
if ARGV[1] == 'forgive' then
  for i = 1, #KEYS do
    if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then
      redis.call('DECR', KEYS[i])
    end
  end
  return 0
end
local wait = 0
for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  if redis.call('TTL', KEYS[i]) < 0 then
    redis.call('EXPIRE', KEYS[i], ARGV[2 * i + 1])
  end
  if count > tonumber(ARGV[2 * i]) then
    wait = math.max(wait, redis.call('TTL', KEYS[i]), 1)
  end
end
if wait > 0 then
  for i = 1, #KEYS do
    redis.call('DECR', KEYS[i])
  end
end
return wait
