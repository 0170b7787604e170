import { FakeInputError } from '../service/errors.js'
import type { PlainRequest } from '../service/http.js'
import { definedOnly } from '../service/defined-only.js'
import { applies, effectOf, type ForcedEffect, type ForcedRule, type ForcedRuleSpec, MAX_FORCED_RULES, MAX_FORCED_RULES_IN_ALL, rulesFull } from '../fake/forced.js'
import { type Latency, type LatencySpec, parseLatency, toLatencySpec } from '../fake/latency.js'
import type { RedisCall } from './connection.js'

/**
 * What a test can change besides the animals, kept in Redis so that every replica answers alike:
 * the forced rules and the latency of each scope. A scope is a store's label (`shared`, or a key's
 * under `--isolate`), or `EVERY_STORE` for what was set without a key.
 *
 * - `<prefix>control`, a version that every change of a rule or a latency moves on;
 * - `<prefix>forced:<scope>`, a hash of each rule of the scope (its spec's JSON) by id, and
 *   `<prefix>forced:scopes`, the scopes that have rules;
 * - `<prefix>forced:remaining`, how many more requests each rule with `times` answers;
 * - `<prefix>forced:last`, the last rule id (ids go on across scopes and resets), and
 *   `<prefix>forced:count`, how many rules every scope holds together;
 * - `<prefix>latency`, a hash of each scope's latency setting.
 *
 * Each replica keeps the rules and latencies it last read, with their version. A request is
 * matched against them, and every script it then runs (the list, the lookup, the creation, the
 * taking of a rule) first checks that the version has not moved: when it has, the script does
 * nothing, and the request starts again from the rules read afresh. So a rule set through one
 * replica applies from the next request through any other, and a request costs no extra round
 * trip while nothing changes. The scripts name a scope's keys from the prefix, which a single Redis
 * allows and Redis Cluster does not (docs/deploy.md).
 */
export type RedisScopes = {
  /** The rules and latencies as this replica last read them, read again after `stale`. */
  current(): Promise<ScopesState>
  /** Says that `seen` is out of date: the next `current()` reads Redis again. */
  stale(seen: ScopesState): void
  /**
   * What the rules of `label`'s scope, then those of every store, do to `request`, counting a rule
   * with `times` as used in the same step; throws `StaleScopes` when the version moved since `state`.
   * `version` is the version after it: `state`'s, or the next when the rule ran out.
   */
  take(state: ScopesState, label: string, request: PlainRequest): Promise<Taken | undefined>
  /** Throws `StaleScopes` when the version moved since `state`. */
  check(state: ScopesState): Promise<void>
  /** The latency of `label`'s answers: its own, else every store's, else the one started with. */
  latencyOf(state: ScopesState, label: string): Latency
  /** Adds a rule to a scope; a `FakeInputError` (507, `rules_full`) past the caps of `forced.ts`. */
  add(scope: string, spec: ForcedRuleSpec): Promise<ForcedRule>
  /** The rules of a scope, or of every scope (`undefined`), in the order they were added. */
  list(scope: string | undefined): Promise<ForcedRule[]>
  /** Removes the rule with this id from a scope (any scope: `undefined`), or every rule there without an id; false for an id not there. */
  remove(scope: string | undefined, id?: number): Promise<boolean>
  /** A scope's latency setting as the control API shows it. */
  latency(scope: string): Promise<LatencySpec>
  /** Sets a scope's latency; `EVERY_STORE`'s replaces every store's. */
  setLatency(scope: string, latency: Latency): Promise<void>
  /** Drops the rules and latency of a scope (a store dropped or reset), or of every scope (`undefined`: a reset of all). */
  clear(scope: string | undefined): Promise<void>
}

/** The scope of what is set without a key: under isolation every store's, else the one store's. */
export const EVERY_STORE = '*'

/** The rules and latencies of every scope at one version. */
export type ScopesState = {
  readonly version: string
  readonly rules: ReadonlyMap<string, readonly CachedRule[]>
  readonly latency: ReadonlyMap<string, Latency>
}

/** A rule taken by a request: what it does, and the version it left. */
export type Taken = { readonly effect: ForcedEffect; readonly version: string }

type CachedRule = ForcedRule & { readonly segments: readonly string[] | undefined }

/** A script found the version moved since the request read the rules: the request starts again. */
export class StaleScopes extends Error {
  constructor() {
    super('The forced rules or latency changed during this request.')
    this.name = 'StaleScopes'
  }
}

/** What a guarded script answers, doing nothing, when the version moved. */
export const STALE_REPLY = -1

/**
 * The first lines of a script that acts only at the version the request read: the version key is
 * its last key and the version its last argument.
 */
export const VERSION_GUARD = `if (redis.call('GET', KEYS[#KEYS]) or '0') ~= ARGV[#ARGV] then return {${STALE_REPLY}} end\n`

/** Whether a guarded script's reply says the version moved. */
export function isStale(reply: unknown): boolean {
  return Array.isArray(reply) && reply[0] === STALE_REPLY
}

/** The key that every change of a rule or a latency moves on. */
export function versionKey(prefix: string): string {
  return `${prefix}control`
}

// KEYS: version, scopes, latency, remaining. ARGV: where each scope's rules are (the prefix of their key).
const READ = `
local out = {redis.call('GET', KEYS[1]) or '0', redis.call('HGETALL', KEYS[3]), redis.call('HGETALL', KEYS[4])}
for _, scope in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  out[#out + 1] = scope
  out[#out + 1] = redis.call('HGETALL', ARGV[1] .. scope)
end
return out`

// KEYS: version, last, count, scopes, the scope's rules, remaining. ARGV: scope, the rule's JSON,
// times (or ''), the most rules of a scope, the most of every scope together.
const ADD = `
if redis.call('HLEN', KEYS[5]) >= tonumber(ARGV[4]) then return {0, 1} end
if tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[5]) then return {0, 2} end
local id = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[5], id, ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[6], id, ARGV[3]) end
redis.call('SADD', KEYS[4], ARGV[1])
redis.call('INCR', KEYS[3])
redis.call('INCR', KEYS[1])
return {1, id}`

// KEYS: count, scopes, remaining, the scope's rules, version. ARGV: scope, rule id, version.
const TAKE = `${VERSION_GUARD}
local left = redis.call('HGET', KEYS[3], ARGV[2])
if not left then return {1} end
if tonumber(left) > 1 then
  redis.call('HINCRBY', KEYS[3], ARGV[2], -1)
  return {1}
end
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
if redis.call('HLEN', KEYS[4]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
redis.call('DECR', KEYS[1])
return {1, redis.call('INCR', KEYS[5])}`

// KEYS: version, count, scopes, remaining, latency. ARGV: where each scope's rules are, the scope
// ('' for every scope), the rule id ('' for every rule), whether its latency goes too ('1').
const REMOVE = `
local scopes = ARGV[2] == '' and redis.call('SMEMBERS', KEYS[3]) or {ARGV[2]}
local removed = 0
for _, scope in ipairs(scopes) do
  local rules = ARGV[1] .. scope
  if ARGV[3] == '' then
    local ids = redis.call('HKEYS', rules)
    for _, id in ipairs(ids) do redis.call('HDEL', KEYS[4], id) end
    removed = removed + #ids
    redis.call('DEL', rules)
    redis.call('SREM', KEYS[3], scope)
  elseif redis.call('HDEL', rules, ARGV[3]) == 1 then
    removed = 1
    redis.call('HDEL', KEYS[4], ARGV[3])
    if redis.call('HLEN', rules) == 0 then redis.call('SREM', KEYS[3], scope) end
    break
  end
end
local changed = removed > 0
if ARGV[4] == '1' then
  if ARGV[2] == '' then
    changed = redis.call('DEL', KEYS[5]) == 1 or changed
  else
    changed = redis.call('HDEL', KEYS[5], ARGV[2]) == 1 or changed
  end
end
if removed > 0 then redis.call('DECRBY', KEYS[2], removed) end
if changed then redis.call('INCR', KEYS[1]) end
return removed`

// KEYS: version, latency. ARGV: scope, the setting's JSON, '1' to replace every scope's.
const SET_LATENCY = `
if ARGV[3] == '1' then redis.call('DEL', KEYS[2]) end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('INCR', KEYS[1])
return 1`

/** Options of `redisScopes`. */
export type RedisScopesOptions = {
  readonly call: RedisCall
  readonly prefix: string
  /** The latency of a scope never set (`--latency`): the same on every replica started with the same option. */
  readonly startLatency: Latency
}

export function redisScopes({ call, prefix, startLatency }: RedisScopesOptions): RedisScopes {
  const keys = scopeKeysOf(prefix)
  let cached: Promise<ScopesState> | undefined
  // What `cached` resolved to, so that `stale` compares at once.
  let latest: ScopesState | undefined

  const read = (): Promise<Read> => readScopes(call, keys)

  const listed = async (scope: string | undefined): Promise<ForcedRule[]> => {
    const { state, remaining } = await read()
    const rules = scope === undefined ? [...state.rules.values()].flat().sort((a, b) => a.id - b.id) : (state.rules.get(scope) ?? [])
    return rules.map(({ segments: _segments, ...rule }) => ({ ...rule, ...definedOnly({ remaining: remaining.get(String(rule.id)) }) }))
  }

  const scopes: RedisScopes = {
    current() {
      if (cached === undefined) {
        const reading = read().then(({ state }) => (latest = state))
        cached = reading
        // A read that failed is not kept: the next request reads again.
        reading.catch(() => {
          if (cached === reading) cached = undefined
        })
      }
      return cached
    },
    stale(seen) {
      if (latest === seen) {
        cached = undefined
        latest = undefined
      }
    },
    async take(state, label, request) {
      for (const scope of [label, EVERY_STORE]) {
        const rule = state.rules.get(scope)?.find((candidate) => applies(candidate, candidate.segments, request))
        if (rule === undefined) continue
        const reply = (await call.script(TAKE, [keys.count, keys.scopes, keys.remaining, keys.rules + scope, keys.version], [scope, String(rule.id), state.version])) as [number, number?]
        if (isStale(reply)) throw new StaleScopes()
        if (reply[1] === undefined) return { effect: effectOf(rule), version: state.version }
        // The rule ran out: the rules this replica holds are out of date for the next request.
        scopes.stale(state)
        return { effect: effectOf(rule), version: String(reply[1]) }
      }
      return undefined
    },
    async check(state) {
      if (((await call.command(['GET', keys.version])) ?? '0') !== state.version) throw new StaleScopes()
    },
    latencyOf: (state, label) => state.latency.get(label) ?? state.latency.get(EVERY_STORE) ?? startLatency,
    async add(scope, spec) {
      const stored = { ...spec, ...definedOnly({ method: spec.method?.toUpperCase() }) }
      const reply = (await call.script(ADD, [keys.version, keys.last, keys.count, keys.scopes, keys.rules + scope, keys.remaining], [scope, JSON.stringify(stored), spec.times === undefined ? '' : String(spec.times), String(MAX_FORCED_RULES), String(MAX_FORCED_RULES_IN_ALL)])) as [number, number]
      if (reply[0] === 0) throw new FakeInputError(rulesFull(reply[1] === 1 ? 'scope' : 'all'))
      return { id: reply[1], tenant: scope === EVERY_STORE ? null : scope, ...stored, ...definedOnly({ remaining: spec.times }) }
    },
    list: listed,
    async remove(scope, id) {
      const removed = await call.script(REMOVE, [keys.version, keys.count, keys.scopes, keys.remaining, keys.latency], [keys.rules, scope ?? '', id === undefined ? '' : String(id), '0'])
      return id === undefined || removed === 1
    },
    async latency(scope) {
      const stored = (await call.command(['HMGET', keys.latency, scope, EVERY_STORE])) as (string | null)[]
      const text = stored.find((setting) => setting !== null)
      return toLatencySpec(text === undefined ? startLatency : parseStoredLatency(text))
    },
    async setLatency(scope, latency) {
      await call.script(SET_LATENCY, [keys.version, keys.latency], [scope, JSON.stringify(toLatencySpec(latency)), scope === EVERY_STORE ? '1' : '0'])
    },
    async clear(scope) {
      await call.script(REMOVE, [keys.version, keys.count, keys.scopes, keys.remaining, keys.latency], [keys.rules, scope ?? '', '', '1'])
    },
  }
  return scopes
}

/** The keys of the forced rules and latencies under `prefix` (see `RedisScopes`). */
function scopeKeysOf(prefix: string) {
  return {
    version: versionKey(prefix),
    last: `${prefix}forced:last`,
    count: `${prefix}forced:count`,
    scopes: `${prefix}forced:scopes`,
    remaining: `${prefix}forced:remaining`,
    latency: `${prefix}latency`,
    rules: `${prefix}forced:`,
  }
}

type ScopeKeys = { readonly version: string; readonly scopes: string; readonly latency: string; readonly remaining: string; readonly rules: string }

/** What a read of every scope gives: the state, and how many more requests each rule with `times` answers, by id. */
type Read = { readonly state: ScopesState; readonly remaining: ReadonlyMap<string, number> }

/** Every scope's rules and latency at one version, read in one script. */
async function readScopes(call: RedisCall, keys: ScopeKeys): Promise<Read> {
  const [version, latencies, remaining, ...scopes] = (await call.script(READ, [keys.version, keys.scopes, keys.latency, keys.remaining], [keys.rules])) as [string, string[], string[], ...(string | string[])[]]
  const rules = new Map<string, CachedRule[]>()
  for (let i = 0; i < scopes.length; i += 2) {
    const scope = scopes[i] as string
    const list = pairs(scopes[i + 1] as string[]).map(([id, text]): CachedRule => {
      const spec = JSON.parse(text) as ForcedRuleSpec
      return { id: Number(id), tenant: scope === EVERY_STORE ? null : scope, ...spec, segments: spec.path?.split('/') }
    })
    rules.set(scope, list.sort((a, b) => a.id - b.id))
  }
  const latency = new Map(pairs(latencies).map(([scope, text]) => [scope, parseStoredLatency(text)]))
  return { state: { version, rules, latency }, remaining: new Map(pairs(remaining).map(([id, left]) => [id, Number(left)])) }
}

/** A flat list of Redis's field, value replies as pairs. */
function pairs(flat: readonly string[]): [string, string][] {
  const result: [string, string][] = []
  for (let i = 0; i < flat.length; i += 2) result.push([flat[i] as string, flat[i + 1] as string])
  return result
}

/** A latency this module wrote: checked again, so that a key changed by hand in Redis cannot stop every answer. */
function parseStoredLatency(text: string): Latency {
  const parsed = parseLatency(JSON.parse(text) as unknown)
  if (!parsed.ok) throw new Error(`The latency kept in Redis is not one: ${text}`)
  return parsed.value
}
