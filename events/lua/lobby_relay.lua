--[[
Copy lobby changes of one bucket into the lobby feed, in order, each once (events/lobby.py).

KEYS[1]  the bucket's cursor (string: the id of the last change of the bucket copied)
KEYS[2]  the lobby feed (stream)
ARGV[1]  the feed's cap (approximate MAXLEN)
ARGV[2]  '' to copy what follows the cursor among the changes given; or the id of the change just
         before the first one given, which must then be the cursor (else nothing is copied: -1)
ARGV[3], ARGV[4], ...  pairs: a change's id in the bucket, its data, oldest first

Changes at or before the cursor were copied already and are skipped, so any number of processes
may relay one bucket at once. Returns how many changes were copied, or -1 when changes before
the ones given are not copied yet (the caller then reads them all from the cursor and tries again).
--]]
local function parse(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end

local function after(a, b)                    -- stream id a comes after stream id b
  local am, as = parse(a)
  local bm, bs = parse(b)
  return am > bm or (am == bm and as > bs)
end

local cursor = redis.call('GET', KEYS[1]) or '0-0'
local copied = 0
for i = 3, #ARGV, 2 do
  local id = ARGV[i]
  if after(id, cursor) then
    if ARGV[2] ~= '' and copied == 0 and cursor ~= ARGV[2] then
      return -1
    end
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], '*', 'data', ARGV[i + 1])
    cursor = id
    copied = copied + 1
  end
end
if copied > 0 then
  redis.call('SET', KEYS[1], cursor)
end
return copied
