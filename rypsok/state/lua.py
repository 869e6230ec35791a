"""The Lua scripts behind :class:`~rypsok.state.redis.RedisStore`: one per batched operation,
each atomic on the server, so replicas never interleave inside a decision.

Time is the server's (``TIME``, in whole milliseconds), so replicas agree on windows
and cooldowns whatever their own clocks say. The rules are those of the in-memory
classes (``limits.MinuteWindow``, ``breaker.EngineHealth``,
``result_cache.ResultCache``); the key layout is in ``redis.py``.

A script names in KEYS every key it touches, except that the cache's eviction deletes the
entries its index names: on a Cluster those all share the index's hash slot. PLAN and
SETTLE do a whole search at once on one server (or a Sentinel's primary); on a Cluster, a
search's keys are in several slots, and each of them is split into scripts of one slot:
PLAN_CALL (the call's windows and the cache, in the shared slot) then PLAN_ENGINE for each
engine the cache did not answer (in the engine's slot); SETTLE_ENGINE for each engine and
SETTLE_CALL (the cache and the returned URLs). The rules live once, in PRELUDE's functions.
"""

from __future__ import annotations

from rypsok.state.breaker import LATENCY_WINDOW

PRELUDE = (
    f"local LATENCY_KEPT = {LATENCY_WINDOW}\n"
    + """
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
-- one engine the cache did not answer: its rest (a spent plan), its budget, its monthly
-- caps (calls and cost), then its breaker; a request granted counts against the budget
-- and the calls cap. keys: window, breaker, lease, month, rest, cost; caps: calls, cost
-- (0: none), ms until the month ends. {decision, payload}: for go and probe '1' when the
-- breaker is clean, else the ms until the engine may be asked.
local function plan_engine(keys, limit, caps, token, lease_ms)
  local window, breaker, lease, month, rest, cost = unpack(keys)
  local cap, cost_cap, month_ms = caps[1], caps[2], caps[3]
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
    return {decision, redis.call('EXISTS', breaker) == 0 and '1' or ''}
  end
  local open_until = tonumber(redis.call('HGET', breaker, 'o')) or now
  local cooldown_ms = math.max(0, open_until - now)
  local budget_ms = window_retry_ms(window, limit, count)
  local cap_ms = capped and month_ms or 0
  return {decision, tostring(math.max(1, cooldown_ms, budget_ms, cap_ms, rest_ms))}
end

-- an engine's outcome: its rest (a spent plan; a longer rest already set stays), the
-- month's cost, its latency, then its breaker (an answer closes it; a failure counts, and
-- opens it at the threshold, for Retry-After, or when the probe failed). keys: breaker,
-- lease, latency, rest, cost; spent: rest_ms (0: none), cost or '', ms until the month ends
local function settle_engine(keys, answered, seconds, retry_ms, token, spent, rules)
  local breaker, lease, latency, rest, cost_key = unpack(keys)
  local rest_ms, cost, month_ms = spent[1], spent[2], spent[3]
  if rest_ms > 0 and redis.call('PTTL', rest) < rest_ms then
    redis.call('SET', rest, '1', 'PX', rest_ms)
  end
  if cost ~= '' then
    redis.call('INCRBYFLOAT', cost_key, cost)
    redis.call('PEXPIRE', cost_key, month_ms + 86400000)
  end
  if seconds ~= '' then
    redis.call('LPUSH', latency, seconds)
    redis.call('LTRIM', latency, 0, LATENCY_KEPT - 1)
  end
  if answered == '1' then
    redis.call('DEL', breaker, lease)
    return
  end
  local was_probe = token ~= '' and redis.call('GET', lease) == token
  if was_probe then redis.call('DEL', lease) end
  local failures = redis.call('HINCRBY', breaker, 'f', 1)
  local cooldown = tonumber(redis.call('HGET', breaker, 'c')) or rules.first_cooldown
  if retry_ms > 0 then
    redis.call('HSET', breaker, 'o', now + math.min(retry_ms, rules.max_cooldown))
  elseif was_probe then
    cooldown = math.min(cooldown * 2, rules.max_cooldown)
    redis.call('HSET', breaker, 'c', cooldown, 'o', now + cooldown)
  elseif failures >= rules.failures_to_open then
    redis.call('HSET', breaker, 'o', now + cooldown)
  end
end

-- the URLs a search returned, ARGV[first..]: scored by time in microseconds, one apart in
-- the order given, so the oldest go first; the newest kept stay
local function record_urls(key, first, kept)
  local scored = {}
  for j = first, #ARGV do
    scored[#scored + 1] = string.format('%.0f', now * 1000 + (j - first))
    scored[#scored + 1] = ARGV[j]
  end
  if #scored > 0 then
    chunked('ZADD', key, scored)
    redis.call('ZREMRANGEBYRANK', key, 0, -(kept + 1))
  end
end

-- an engine's view for engine_status: its breaker's state and its latencies
local function view_engine(lease, breaker, latency)
  local state = 'closed'
  if redis.call('EXISTS', lease) == 1 then
    state = 'half_open'
  elseif redis.call('HEXISTS', breaker, 'o') == 1 then
    state = 'open'
  end
  return {state, redis.call('LRANGE', latency, 0, -1)}
end
"""
)

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
  local at, args = k + 7 * (i - 1), a + 5 * (i - 1)
  local hit = false
  if ARGV[args + 2] == '1' then hit = cache_get(KEYS[at + 1], KEYS[1]) end
  if hit then
    answers[i] = {'cached', hit}
  else
    answers[i] = plan_engine(
      {KEYS[at + 2], KEYS[at + 3], KEYS[at + 4], KEYS[at + 5], KEYS[at + 6], KEYS[at + 7]},
      tonumber(ARGV[args + 1]),
      {tonumber(ARGV[args + 3]), tonumber(ARGV[args + 4]), tonumber(ARGV[args + 5])},
      token, lease_ms)
  end
end
return {0, answers}
"""
)

PLAN_CALL = (
    PRELUDE
    + """
-- A Cluster's first half of PLAN, in the shared slot. KEYS: cache index, the call's
-- windows, then each engine's cache entry. ARGV: token, window count, each window's
-- limit, then per engine use_cache (1 or 0). Returns {0, per engine the cached value or
-- ''}, or {ms until the full window has room, {}}.
local windows = tonumber(ARGV[2])
local refused = take_windows(2, windows, 3, ARGV[1])
if refused > 0 then return {refused, {}} end
local hits = {}
for i = 1, #KEYS - 1 - windows do
  hits[i] = ''
  if ARGV[2 + windows + i] == '1' then
    hits[i] = cache_get(KEYS[1 + windows + i], KEYS[1]) or ''
  end
end
return {0, hits}
"""
)

PLAN_ENGINE = (
    PRELUDE
    + """
-- A Cluster's second half of PLAN, for one engine, in its slot. KEYS: budget window,
-- breaker, lease, month counter, rest, month's cost. ARGV: token, lease_ms,
-- rate_per_minute, monthly calls cap, monthly cost cap (0: none), ms until the month ends.
-- Returns {decision, payload} as PLAN does.
return plan_engine(KEYS, tonumber(ARGV[3]),
  {tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])}, ARGV[1], tonumber(ARGV[2]))
"""
)

_RULES = """
local rules = {failures_to_open = tonumber(ARGV[1]), first_cooldown = tonumber(ARGV[2]),
  max_cooldown = tonumber(ARGV[3])}
"""

SETTLE = (
    PRELUDE
    + _RULES
    + """
-- KEYS: cache index, returned URLs, then per engine: breaker, lease, latency, rest,
-- month's cost, cache entry. ARGV: failures, cooldown_ms, max_cooldown_ms, cache ttl_ms,
-- cache max_entries, URLs kept, engine count; per engine: answered (1 or 0), latency_s or
-- '', retry_after_ms, lease or '', rest_ms (0: none), cost or '', ms until the month
-- ends, cache value or ''; then the returned URLs.
local ttl_ms, max_entries, urls_kept = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local engines = tonumber(ARGV[7])
for i = 1, engines do
  local k, at = 2 + 6 * (i - 1), 7 + 8 * (i - 1)
  settle_engine({KEYS[k+1], KEYS[k+2], KEYS[k+3], KEYS[k+4], KEYS[k+5]}, ARGV[at+1],
    ARGV[at+2], tonumber(ARGV[at+3]), ARGV[at+4],
    {tonumber(ARGV[at+5]), ARGV[at+6], tonumber(ARGV[at+7])}, rules)
  local value = ARGV[at+8]
  if value ~= '' then cache_put(KEYS[k+6], KEYS[1], value, ttl_ms, max_entries) end
end
record_urls(KEYS[2], 8 + 8 * engines, urls_kept)
return 1
"""
)

SETTLE_ENGINE = (
    PRELUDE
    + _RULES
    + """
-- A Cluster's SETTLE for one engine, in its slot. KEYS: breaker, lease, latency, rest,
-- month's cost. ARGV: failures, cooldown_ms, max_cooldown_ms, answered (1 or 0),
-- latency_s or '', retry_after_ms, lease or '', rest_ms (0: none), cost or '', ms until
-- the month ends.
settle_engine(KEYS, ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7],
  {tonumber(ARGV[8]), ARGV[9], tonumber(ARGV[10])}, rules)
return 1
"""
)

SETTLE_CALL = (
    PRELUDE
    + """
-- A Cluster's SETTLE of the shared slot. KEYS: cache index, returned URLs, then each
-- entry to cache. ARGV: cache ttl_ms, cache max_entries, URLs kept, entry count, each
-- entry's value, then the returned URLs.
local ttl_ms, max_entries, urls_kept = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local entries = tonumber(ARGV[4])
for i = 1, entries do
  cache_put(KEYS[2 + i], KEYS[1], ARGV[4 + i], ttl_ms, max_entries)
end
record_urls(KEYS[2], 5 + entries, urls_kept)
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
  local at = windows + 3 * (i - 1)
  views[i] = view_engine(KEYS[at + 1], KEYS[at + 2], KEYS[at + 3])
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
