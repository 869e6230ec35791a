"""The Lua scripts behind :class:`~rypsok.state.redis.RedisStore`: one per batched operation,
each atomic on the server, so replicas never interleave inside a decision.

Time is the server's (``TIME``, in whole milliseconds), so replicas agree on windows
and cooldowns whatever their own clocks say. The rules are those of the in-memory
classes (``limits.MinuteWindow``, ``breaker.EngineHealth``,
``result_cache.ResultCache``); the key layout is in ``redis.py``.

A script names in KEYS every key it was given; the cache's eviction deletes the keys its
index names, so the store is a single Redis or Valkey server, not a cluster.
"""

from __future__ import annotations

from rypsok.state.breaker import LATENCY_WINDOW

PRELUDE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local WINDOW_MS = 60000

-- a command over many items, 200 at a time (Lua's unpack has a stack limit)
local function chunked(command, key, items)
  for first = 1, #items, 200 do
    local last = math.min(first + 199, #items)
    if key then
      redis.call(command, key, unpack(items, first, last))
    else
      redis.call(command, unpack(items, first, last))
    end
  end
end

-- limits.MinuteWindow: a sliding log of event times in a sorted set
local function window_count(key)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - WINDOW_MS)
  return redis.call('ZCARD', key)
end

local function window_retry_ms(key, limit, count)
  if count < limit then return 0 end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return math.max(1, math.ceil(tonumber(oldest[2]) + WINDOW_MS - now))
end

local function window_take(key, member)
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, WINDOW_MS)
end

-- windows KEYS[first..first+count-1] with limits ARGV[at..]: taken in order; the first
-- that is full refuses (the ones before it stay taken). 0, or ms until it has room.
local function take_windows(first, count, at, member)
  for i = 0, count - 1 do
    local key, limit = KEYS[first + i], tonumber(ARGV[at + i])
    local taken = window_count(key)
    if taken >= limit then return window_retry_ms(key, limit, taken) end
    window_take(key, member)
  end
  return 0
end

-- result_cache.ResultCache: values with PX, an index scored by last use
local function cache_get(key, index)
  local value = redis.call('GET', key)
  if not value then
    redis.call('ZREM', index, key)
    return false
  end
  redis.call('ZADD', index, now, key)
  return value
end

local function cache_put(key, index, value, ttl_ms, max_entries)
  redis.call('SET', key, value, 'PX', ttl_ms)
  redis.call('ZADD', index, now, key)
  -- last used before now - ttl means put before it too: already expired
  redis.call('ZREMRANGEBYSCORE', index, '-inf', now - ttl_ms)
  local excess = redis.call('ZCARD', index) - max_entries
  if excess > 0 then
    local victims = redis.call('ZRANGE', index, 0, excess - 1)
    chunked('DEL', nil, victims)
    chunked('ZREM', index, victims)
  end
end

-- breaker.EngineHealth: a hash (f failures, o open-until, c cooldown) and
-- the half-open probe as a lease that one caller wins
local function admit(breaker, lease, token, lease_ms)
  if redis.call('EXISTS', lease) == 1 then return 'cooldown' end
  local open_until = redis.call('HGET', breaker, 'o')
  if not open_until then return 'go' end
  if now < tonumber(open_until) then return 'cooldown' end
  if redis.call('SET', lease, token, 'NX', 'PX', lease_ms) then return 'probe' end
  return 'cooldown'
end
"""

ACQUIRE = (
    PRELUDE
    + """
-- KEYS: windows. ARGV: member, then each window's limit.
return take_windows(1, #KEYS, 2, ARGV[1])
"""
)

PLAN = (
    PRELUDE
    + """
-- KEYS: cache index, the call's windows, then per engine: cache entry, budget window,
-- breaker, lease, month counter, rest, month's cost. ARGV: token, lease_ms, window count,
-- each window's limit, then per engine: rate_per_minute, use_cache (1 or 0), monthly
-- calls cap (0: none), monthly cost cap (0: none), ms until the month ends. Returns {0,
-- per engine {decision, cached value, retry ms, or for go and probe '1' when the breaker
-- is clean}}, or {ms until the full window has room, {}}.
local token, lease_ms, windows = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local refused = take_windows(2, windows, 4, token)
if refused > 0 then return {refused, {}} end
local answers = {}
local k, a = 1 + windows, 3 + windows
for i = 1, (#KEYS - k) / 7 do
  local entry, window = KEYS[k + 7*i - 6], KEYS[k + 7*i - 5]
  local breaker, lease, month = KEYS[k + 7*i - 4], KEYS[k + 7*i - 3], KEYS[k + 7*i - 2]
  local rest, cost = KEYS[k + 7*i - 1], KEYS[k + 7*i]
  local limit = tonumber(ARGV[a + 5*i - 4])
  local cap, cost_cap = tonumber(ARGV[a + 5*i - 2]), tonumber(ARGV[a + 5*i - 1])
  local month_ms = tonumber(ARGV[a + 5*i])
  local hit = false
  if ARGV[a + 5*i - 3] == '1' then hit = cache_get(entry, KEYS[1]) end
  if hit then
    answers[i] = {'cached', hit}
  else
    local count = window_count(window)
    local capped = cap > 0 and (tonumber(redis.call('GET', month)) or 0) >= cap
    if cost_cap > 0 and (tonumber(redis.call('GET', cost)) or 0) >= cost_cap then
      capped = true
    end
    local rest_ms = math.max(0, redis.call('PTTL', rest))
    local decision = 'rate_limited'
    if count < limit and not capped and rest_ms == 0 then
      decision = admit(breaker, lease, token, lease_ms)
    end
    if decision ~= 'rate_limited' and decision ~= 'cooldown' then
      window_take(window, token)
      if cap > 0 then
        redis.call('INCR', month)
        -- kept a day past the month's end, for replicas whose clocks are behind
        redis.call('PEXPIRE', month, month_ms + 86400000)
      end
      -- '1': the breaker holds nothing, so an answer would leave it as it is
      answers[i] = {decision, redis.call('EXISTS', breaker) == 0 and '1' or ''}
    else
      local open_until = tonumber(redis.call('HGET', breaker, 'o')) or now
      local cooldown_ms = math.max(0, open_until - now)
      local budget_ms = window_retry_ms(window, limit, count)
      local cap_ms = capped and month_ms or 0
      answers[i] = {decision, tostring(math.max(1, cooldown_ms, budget_ms, cap_ms, rest_ms))}
    end
  end
end
return {0, answers}
"""
)

SETTLE = (
    PRELUDE
    + f"""
-- KEYS: cache index, returned URLs, then per engine: breaker, lease, latency, cache entry,
-- rest, month's cost. ARGV: failures, cooldown_ms, max_cooldown_ms, cache ttl_ms, cache
-- max_entries, URLs kept, engine count; per engine: answered (1 or 0), latency_s or '',
-- retry_after_ms, lease or '', cache value or '', rest_ms (0: none), cost or '', ms until
-- the month ends; then the returned URLs.
local failures_to_open, first_cooldown, max_cooldown = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local ttl_ms, max_entries, urls_kept = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local engines = tonumber(ARGV[7])
for i = 1, engines do
  local breaker, lease, latency, entry = KEYS[6*i-3], KEYS[6*i-2], KEYS[6*i-1], KEYS[6*i]
  local rest, cost_key = KEYS[6*i+1], KEYS[6*i+2]
  local at = 7 + 8 * (i - 1)
  local answered, seconds, retry_ms = ARGV[at+1], ARGV[at+2], tonumber(ARGV[at+3])
  local token, value = ARGV[at+4], ARGV[at+5]
  local rest_ms, cost, month_ms = tonumber(ARGV[at+6]), ARGV[at+7], tonumber(ARGV[at+8])
  -- a spent plan rests the engine; a longer rest already set stays
  if rest_ms > 0 and redis.call('PTTL', rest) < rest_ms then
    redis.call('SET', rest, '1', 'PX', rest_ms)
  end
  if cost ~= '' then
    redis.call('INCRBYFLOAT', cost_key, cost)
    redis.call('PEXPIRE', cost_key, month_ms + 86400000)
  end
  if seconds ~= '' then
    redis.call('LPUSH', latency, seconds)
    redis.call('LTRIM', latency, 0, {LATENCY_WINDOW - 1})
  end
  if answered == '1' then
    redis.call('DEL', breaker, lease)
  else
    local was_probe = token ~= '' and redis.call('GET', lease) == token
    if was_probe then redis.call('DEL', lease) end
    local failures = redis.call('HINCRBY', breaker, 'f', 1)
    local cooldown = tonumber(redis.call('HGET', breaker, 'c')) or first_cooldown
    if retry_ms > 0 then
      redis.call('HSET', breaker, 'o', now + math.min(retry_ms, max_cooldown))
    elseif was_probe then
      cooldown = math.min(cooldown * 2, max_cooldown)
      redis.call('HSET', breaker, 'c', cooldown, 'o', now + cooldown)
    elseif failures >= failures_to_open then
      redis.call('HSET', breaker, 'o', now + cooldown)
    end
  end
  if value ~= '' then cache_put(entry, KEYS[1], value, ttl_ms, max_entries) end
end
-- scored by time in microseconds, one apart in the order given, so the oldest go first
local scored = {{}}
local first_url = 8 + 8 * engines
for j = first_url, #ARGV do
  scored[#scored + 1] = string.format('%.0f', now * 1000 + (j - first_url))
  scored[#scored + 1] = ARGV[j]
end
if #scored > 0 then
  chunked('ZADD', KEYS[2], scored)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(urls_kept + 1))
end
return 1
"""
)

VIEWS = (
    PRELUDE
    + """
-- KEYS: the call's windows, then per engine: lease, breaker, latency. ARGV: token, window
-- count, each window's limit. Returns {0, per engine {state, {latency_s...}}}, or {ms
-- until the full window has room, {}}.
local windows = tonumber(ARGV[2])
local refused = take_windows(1, windows, 3, ARGV[1])
if refused > 0 then return {refused, {}} end
local views = {}
for i = 1, (#KEYS - windows) / 3 do
  local lease, breaker = KEYS[windows + 3*i - 2], KEYS[windows + 3*i - 1]
  local state = 'closed'
  if redis.call('EXISTS', lease) == 1 then
    state = 'half_open'
  elseif redis.call('HEXISTS', breaker, 'o') == 1 then
    state = 'open'
  end
  views[i] = {state, redis.call('LRANGE', KEYS[windows + 3*i], 0, -1)}
end
return {0, views}
"""
)

ABANDON = """
-- KEYS: leases; ARGV: the tokens this call holds. Releases only its own.
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[i] then redis.call('DEL', KEYS[i]) end
end
return 1
"""
