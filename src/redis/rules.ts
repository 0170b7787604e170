import { fail, ok } from '../service/http.js'
import type { RulesPort } from '../store/port.js'
import { type ForcedRule, type ForcedRuleSpec, forcedRule, inForce, type Latency, MAX_FORCED_RULES, MAX_FORCED_RULES_IN_ALL, type ScopeState, type ScopeView } from '../store/scope.js'
import type { RedisCall } from './connection.js'
import { type SharedKeys, storeKeys } from './keys.js'

// KEYS: for each of two scopes, its version, rules, left and latency. ARGV: none.
const READ = `
local out = {}
for i = 0, 1 do
  out[#out + 1] = redis.call('GET', KEYS[4 * i + 1]) or '0'
  out[#out + 1] = redis.call('HGETALL', KEYS[4 * i + 2])
  out[#out + 1] = redis.call('HGETALL', KEYS[4 * i + 3])
  out[#out + 1] = redis.call('GET', KEYS[4 * i + 4]) or ''
end
return out`

/**
 * A scope's version moves to the next value of the clock (KEYS[3] of every script of the rules and
 * of a request's step), never to one seen before: a scope emptied of everything loses its version
 * key, and reads as version '0' and empty, which is what it is.
 */
export const LUA_MOVE = `local function move(version) redis.call('SET', version, redis.call('INCR', KEYS[3])) end`

// KEYS: the scopes, the count of rules, the clock; the scope's rules, left, version; the last rule
// id. ARGV: the prefix (unused), the scope, the rule's JSON, its times (or ''), the most rules of a
// scope, the most of every scope.
const ADD = `${LUA_MOVE}
if redis.call('HLEN', KEYS[4]) >= tonumber(ARGV[5]) then return {0, 'scope'} end
if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[6]) then return {0, 'all'} end
local id = redis.call('INCR', KEYS[7])
redis.call('HSET', KEYS[4], id, ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[5], id, ARGV[4]) end
redis.call('INCR', KEYS[2])
redis.call('SADD', KEYS[1], ARGV[2])
move(KEYS[6])
return {1, id}`

// The scopes a script of the rules acts on: ARGV[2], or every scope in the set KEYS[1] when it is
// empty; each scope's keys are made from ARGV[1], the prefix, as keys.ts makes them.
const SCOPES = `${LUA_MOVE}
local function key(scope, name) return ARGV[1] .. '{' .. scope .. '}:' .. name end
local scopes = ARGV[2] == '' and redis.call('SMEMBERS', KEYS[1]) or {ARGV[2]}`

// KEYS: the scopes. ARGV: the prefix, the scope ('' for every scope). Each scope, its rules and left.
const LIST = `${SCOPES}
local out = {}
for _, scope in ipairs(scopes) do
  out[#out + 1] = scope
  out[#out + 1] = redis.call('HGETALL', key(scope, 'rules'))
  out[#out + 1] = redis.call('HGETALL', key(scope, 'left'))
end
return out`

// KEYS: the scopes, the count of rules, the clock. ARGV: the prefix, the scope ('' for every
// scope), the rule id ('' for every rule), '1' to empty the scope of its latency too, and so of
// everything (its version goes, and it leaves the scopes).
const REMOVE = `${SCOPES}
local removed = 0
for _, scope in ipairs(scopes) do
  local gone = 0
  if ARGV[3] == '' then
    gone = redis.call('HLEN', key(scope, 'rules'))
    redis.call('DEL', key(scope, 'rules'), key(scope, 'left'))
  elseif redis.call('HDEL', key(scope, 'rules'), ARGV[3]) == 1 then
    gone = 1
    redis.call('HDEL', key(scope, 'left'), ARGV[3])
  end
  if ARGV[4] == '1' then
    redis.call('DEL', key(scope, 'latency'), key(scope, 'version'))
    redis.call('SREM', KEYS[1], scope)
  elseif gone > 0 then
    move(key(scope, 'version'))
  end
  removed = removed + gone
  if gone > 0 and ARGV[3] ~= '' then break end
end
if removed > 0 then redis.call('DECRBY', KEYS[2], removed) end
return removed`

// KEYS: the scopes, the count of rules, the clock. ARGV: the prefix, '' to replace every scope's
// own latency ('-' otherwise), the scope, the setting's JSON.
const SET_LATENCY = `${SCOPES}
if ARGV[2] == '' then
  for _, scope in ipairs(scopes) do
    if redis.call('DEL', key(scope, 'latency')) == 1 then move(key(scope, 'version')) end
  end
end
redis.call('SET', key(ARGV[3], 'latency'), ARGV[4])
redis.call('SADD', KEYS[1], ARGV[3])
move(key(ARGV[3], 'version'))
return 1`

/** The rules port over Redis, with what the request step needs of it. */
export type RedisRules = RulesPort & {
  /** Forgets the copy of a scope this replica keeps: it moved. */
  moved(scope: string): void
}

/**
 * Each scope's forced rules and latency in Redis, so that every replica answers alike. Each
 * replica keeps a copy of each scope it met, with its version; a request is matched against the
 * copy, and the step it then runs in Redis checks the versions first (`perform`): when one moved,
 * nothing is done, the copy is forgotten and the request starts again. Every change of a scope
 * moves that scope's version alone, so one store's rules never make another store's requests
 * start again. At most `maxScopes` copies are kept, then all are forgotten.
 */
export function redisRules(call: RedisCall, prefix: string, shared: SharedKeys, every: string, maxScopes: number): RedisRules {
  const states = new Map<string, ScopeState>()
  const views = new Map<string, ScopeView>()
  const reading = new Map<string, Promise<ScopeView>>()
  const keysOf = (scope: string): string[] => {
    const keys = storeKeys(prefix, scope)
    return [keys.version, keys.rules, keys.left, keys.latency]
  }
  const remember = (label: string, own: ScopeState, everyState: ScopeState): ScopeView => {
    if (states.size >= maxScopes) {
      states.clear()
      views.clear()
    }
    states.set(label, own)
    states.set(every, everyState)
    const view = { own, every: label === every ? own : everyState }
    views.set(label, view)
    // Every store's scope as it was read: what a request no store took is held back by.
    if (label !== every) views.set(every, { own: everyState, every: everyState })
    return view
  }
  async function read(label: string): Promise<ScopeView> {
    const reply = (await call.script(READ, [...keysOf(label), ...keysOf(every)], [])) as (string | string[])[]
    return remember(label, stateOf(label, reply, 0), stateOf(every, reply, 4))
  }
  const fresh = (label: string): Promise<ScopeView> => {
    let pending = reading.get(label)
    if (pending === undefined) {
      pending = read(label).finally(() => reading.delete(label))
      reading.set(label, pending)
    }
    return pending
  }
  const script = (source: string, args: readonly string[], keys: readonly string[] = []): Promise<unknown> => call.script(source, [shared.scopes, shared.ruleCount, shared.ruleClock, ...keys], [prefix, ...args])
  return {
    view: (label, anew) => (anew === true ? fresh(label) : (views.get(label) ?? fresh(label))),
    async add(scope, spec) {
      const keys = storeKeys(prefix, scope)
      const stored = JSON.stringify(spec)
      const reply = (await script(ADD, [scope, stored, spec.times === undefined ? '' : String(spec.times), String(MAX_FORCED_RULES), String(MAX_FORCED_RULES_IN_ALL)], [keys.rules, keys.left, keys.version, shared.ruleIds])) as [number, number | string]
      if (reply[0] === 0) return fail(reply[1] === 'scope' ? 'scope' : 'all')
      return ok(forcedRule(Number(reply[1]), scope, spec, spec.times))
    },
    async list(scope) {
      const reply = (await script(LIST, [scope ?? ''])) as (string | string[])[]
      const rules: ForcedRule[] = []
      for (let i = 0; i < reply.length; i += 3) rules.push(...rulesOf(reply[i] as string, reply[i + 1] as string[], reply[i + 2] as string[]))
      return rules.sort((a, b) => a.id - b.id)
    },
    async remove(scope, id) {
      const removed = await script(REMOVE, [scope ?? '', id === undefined ? '' : String(id), '0'])
      return id === undefined || removed === 1
    },
    async setLatency(scope, latency, everywhere) {
      await script(SET_LATENCY, [everywhere ? '' : '-', scope, JSON.stringify(latency)])
    },
    async clear(scope) {
      await script(REMOVE, [scope ?? '', '', '1'])
    },
    moved(scope) {
      states.delete(scope)
      if (scope === every) views.clear()
      else views.delete(scope)
    },
  }
}

/** A scope as `READ` gave it from `at`: its version, its rules in the order they were added, its latency. */
function stateOf(scope: string, reply: readonly (string | string[])[], at: number): ScopeState {
  const latency = reply[at + 3] as string
  return {
    version: reply[at] as string,
    rules: rulesOf(scope, reply[at + 1] as string[], reply[at + 2] as string[])
      .sort((a, b) => a.id - b.id)
      .map(inForce),
    latency: latency === '' ? undefined : (JSON.parse(latency) as Latency),
  }
}

/** The rules of a scope from Redis's flat field, value replies of its rules and what they have left. */
function rulesOf(scope: string, rules: readonly string[], left: readonly string[]): ForcedRule[] {
  const remaining = new Map<string, string>()
  for (let i = 0; i < left.length; i += 2) remaining.set(left[i] as string, left[i + 1] as string)
  const listed: ForcedRule[] = []
  for (let i = 0; i < rules.length; i += 2) {
    const left = remaining.get(rules[i] as string)
    listed.push(forcedRule(Number(rules[i]), scope, JSON.parse(rules[i + 1] as string) as ForcedRuleSpec, left === undefined ? undefined : Number(left)))
  }
  return listed
}
