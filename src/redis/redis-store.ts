import type { BudgetLimits } from '../service/budget.js'
import { fail, mapped, ok, type Result } from '../service/http.js'
import type { Pet } from '../spec/animals-service.js'
import { type Found, type NoRoom, type Operation, STALE, type StorePort, type Taken } from '../store/port.js'
import { EVERY_STORE, type ScopeView, SHARED_STORE } from '../store/scope.js'
import { createdOf, creation, LUA_CREATE, prepareLoad, redisAnimals } from './animals.js'
import type { RedisCall } from './connection.js'
import { redisJournal } from './journal.js'
import { memberOf, type SharedKeys, sharedKeys, type StoreKeys, storeKeys } from './keys.js'
import { LUA_MOVE, type RedisRules, redisRules } from './rules.js'
import { redisTenants } from './tenants.js'

// One request's step. KEYS: its store's version, every store's version, the rules' clock; the
// scope of the rule taken: its rules, left and version; the count of rules; then the operation's.
// ARGV: the two versions the request was matched at, the rule taken ('' none); then the operation's.
// When a version moved, nothing is done. A rule that runs out moves its scope's version.
const STEP = `${LUA_MOVE}
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] or (redis.call('GET', KEYS[2]) or '0') ~= ARGV[2] then return {'stale'} end
local moved = 0
if ARGV[3] ~= '' then
  local left = redis.call('HGET', KEYS[5], ARGV[3])
  if left and tonumber(left) > 1 then
    redis.call('HINCRBY', KEYS[5], ARGV[3], -1)
  elseif left then
    redis.call('HDEL', KEYS[5], ARGV[3])
    redis.call('HDEL', KEYS[4], ARGV[3])
    redis.call('DECR', KEYS[7])
    move(KEYS[6])
    moved = 1
  end
end
`

const STEPS = {
  none: `${STEP}return {moved}`,
  // KEYS: the set to list, the animals. ARGV: the limit.
  list: `${STEP}
local members = redis.call('ZRANGE', KEYS[8], 0, tonumber(ARGV[4]) - 1)
if #members == 0 then return {moved, '[]'} end
return {moved, '[' .. table.concat(redis.call('HMGET', KEYS[9], unpack(members)), ',') .. ']'}`,
  // KEYS: the animals. ARGV: the member.
  get: `${STEP}return {moved, redis.call('HGET', KEYS[8], ARGV[4])}`,
  // KEYS and ARGV: create's (LUA_CREATE).
  create: `${STEP}${LUA_CREATE}
return {moved, unpack(create({unpack(KEYS, 8)}, {unpack(ARGV, 4)}))}`,
} as const

/** Options of `createRedisStore`. */
export type RedisStoreOptions = {
  readonly call: RedisCall
  /** Where every key starts (`DEFAULT_PREFIX`): replicas of one fake share it. */
  readonly prefix: string
  /** The animals a store starts from, and returns to on reset. */
  readonly fixture: readonly Pet[]
  readonly limits: BudgetLimits
  /** One store per key (`--isolate`): the secret of their labels and how long one may go unused. */
  readonly isolate?: { readonly secret: string; readonly idleMs: number }
  /** How many requests each scope's journal keeps; 0 keeps none and writes nothing per request. */
  readonly journalSize: number
  /** The most scopes a replica keeps a copy of: the most stores, and every store's. */
  readonly maxScopes: number
  readonly now: () => number
}

/** The store port over Redis, with what a replica does at start and what `/healthz` shows. */
export type RedisStore = StorePort & {
  /**
   * Loads the fixture into the shared store unless a replica already did: the first replica to
   * start fills it, the others (and this one after a restart) find it as it is; true when it
   * loaded it. Under isolation it loads nothing (each key's store is made on its first request).
   */
  start(): Promise<Result<boolean, NoRoom>>
  /** How many animals every store holds together, and under isolation how many stores are in use. */
  health(): Promise<{ readonly animals: number; readonly stores?: number }>
}

/**
 * The store port over Redis, shared by every replica with the same Redis and prefix: the animals,
 * the forced rules and latency, the journal and the stores of keys. A request's step is one script.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const { call, prefix, limits, isolate, now } = options
  const shared = sharedKeys(prefix)
  const keysOf = (label: string) => storeKeys(prefix, label)
  const every = isolate === undefined ? SHARED_STORE : EVERY_STORE
  const fixture = await prepareLoad(options.fixture)
  const rules = redisRules(call, prefix, shared, every, options.maxScopes)
  const journal = redisJournal(call, shared, options.journalSize)
  const animals = redisAnimals({ call, keysOf, shared, limits })
  const forget = async (label: string): Promise<void> => void (await Promise.all([rules.clear(label), journal.clear(label)]))
  const tenants = isolate === undefined ? undefined : redisTenants({ call, keysOf, shared, animals, fixture, forget, ...isolate })
  // Back to the fixture: a store of a key only while it is in use (one dropped meanwhile stays dropped).
  const renew = async (label: string): Promise<Result<void, NoRoom>> => {
    const swapped = await animals.swap(keysOf(label), fixture, tenants === undefined ? { kind: 'plain' } : { kind: 'renew', label, at: now(), maxStores: 0 })
    return typeof swapped === 'object' ? fail(swapped) : ok(undefined)
  }
  return {
    animals: { ...animals, renew },
    rules,
    journal,
    tenants: tenants ?? { claim: () => ok(SHARED_STORE), dropIdle: () => undefined, labels: () => [SHARED_STORE] },
    perform: (label, view, taken, operation) => perform({ call, keysOf, shared, every, limits, rules }, label, view, taken, operation),
    async start() {
      if (tenants !== undefined) {
        await tenants.labels()
        return ok(false)
      }
      if ((await call.command(['EXISTS', shared.started])) === 1) return ok(false)
      // Replicas starting together may each load the fixture: the same animals, the later swap last.
      const loaded = await renew(SHARED_STORE)
      if (!loaded.ok) return loaded
      await call.command(['SET', shared.started, '1'])
      return ok(true)
    },
    async health() {
      const held = await animals.held()
      return tenants === undefined ? { animals: held.animals } : { animals: held.animals, stores: Number(await call.command(['ZCARD', shared.stores])) }
    },
  }
}

type StepContext = {
  readonly call: RedisCall
  readonly keysOf: (label: string) => StoreKeys
  readonly shared: SharedKeys
  readonly every: string
  readonly limits: BudgetLimits
  readonly rules: RedisRules
}

/** One request's step in one script: the versions checked, the rule's use counted, the operation done. */
async function perform(context: StepContext, label: string, view: ScopeView, taken: Taken | undefined, operation: Operation | undefined): Promise<Found | typeof STALE> {
  const { call, keysOf, shared, every, rules } = context
  const own = keysOf(label)
  // Without a rule taken, the rule keys are the store's own: the script reads them not.
  const scope = keysOf(taken?.scope ?? label)
  const step = stepOf(operation, own, context)
  const keys = [own.version, keysOf(every).version, shared.ruleClock, scope.rules, scope.left, scope.version, shared.ruleCount, ...step.keys]
  const args = [view.own.version, view.every.version, taken === undefined ? '' : String(taken.id), ...step.args]
  const [moved, ...found] = (await call.script(STEPS[operation?.kind ?? 'none'], keys, args)) as [number | 'stale', ...(string | number | null)[]]
  if (moved === 'stale') {
    rules.moved(label)
    rules.moved(every)
    return STALE
  }
  if (moved === 1 && taken !== undefined) rules.moved(taken.scope)
  return step.found(found)
}

/** What an operation's part of a step's script takes, and what it found from what it answered. */
function stepOf(operation: Operation | undefined, own: StoreKeys, { shared, limits }: StepContext): { keys: string[]; args: string[]; found: (reply: readonly (string | number | null)[]) => Found } {
  switch (operation?.kind) {
    case undefined:
      return { keys: [], args: [], found: () => ({ kind: 'none' }) }
    case 'list':
      return { keys: [operation.status === undefined ? own.order : own.status(operation.status), own.animal], args: [String(operation.limit)], found: ([json]) => ({ kind: 'list', json: String(json) }) }
    case 'get':
      return { keys: [own.animal], args: [memberOf(operation.id)], found: ([json]) => ({ kind: 'get', id: operation.id, json: typeof json === 'string' ? json : undefined }) }
    case 'create': {
      const { keys, args } = creation(own, shared, limits, [operation.newPet])
      return { keys, args, found: (reply) => ({ kind: 'create', created: mapped(createdOf(reply, 1), ({ firstId, json }) => ({ id: firstId, json })) }) }
    }
  }
}
