import type { BudgetLimits } from '../service/budget.js'
import { definedOnly } from '../service/defined-only.js'
import { fail, mapped, ok, type Result } from '../service/http.js'
import type { Pet } from '../spec/animals-service.js'
import { type Found, type NoRoom, type Operation, STALE, type StorePort, StoreUnavailable, type Taken } from '../store/port.js'
import { jsonArray } from '../store/list-cache.js'
import { EVERY_STORE, type ScopeView, SHARED_STORE } from '../store/scope.js'
import { createdOf, creation, LUA_CREATE, prepareLoad, redisAnimals } from './animals.js'
import type { RedisCall } from './connection.js'
import { type DataEpoch, dataEpoch } from './epoch.js'
import { redisJournal } from './journal.js'
import { type KeptLists, keptLists } from './kept-lists.js'
import { memberOf, type SharedKeys, sharedKeys, type StoreKeys, storeKeys } from './keys.js'
import { LUA_MOVE, type RedisRules, redisRules } from './rules.js'
import { redisTenants } from './tenants.js'

// One request's step. KEYS: its store's version, every store's version, the rules' clock; the
// scope of the rule taken: its rules, left and version; the count of rules; the data's epoch;
// then the operation's. ARGV: the two versions the request was matched at, the rule taken ('' none),
// the epoch the replica knows; then the operation's. When the epoch is not that one (the data went,
// or was loaded again), nothing is done and the epoch is answered; when a version moved, nothing
// is done. A rule that runs out moves its scope's version.
const STEP = `${LUA_MOVE}
local known = redis.call('MGET', KEYS[8], KEYS[1], KEYS[2])
if known[1] ~= ARGV[4] then return {'epoch', known[1]} end
if (known[2] or '0') ~= ARGV[1] or (known[3] or '0') ~= ARGV[2] then return {'stale'} end
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
  // KEYS: the set to list, the animals, the store's data and last. ARGV: the limit, the revision of
  // the answer the replica keeps ('' none). Answers the store's revision ('' without data: a store
  // no load of this version wrote, whose answers are not kept), then the texts unless it is the one kept.
  list: `${STEP}
local held = redis.call('MGET', KEYS[11], KEYS[12])
local revision = held[1] and (held[1] .. ':' .. (held[2] or '')) or ''
if revision ~= '' and revision == ARGV[6] then return {moved, revision} end
local members = redis.call('ZRANGE', KEYS[9], 0, tonumber(ARGV[5]) - 1)
if #members == 0 then return {moved, revision} end
return {moved, revision, unpack(redis.call('HMGET', KEYS[10], unpack(members)))}`,
  // KEYS: the animals. ARGV: the member.
  get: `${STEP}return {moved, redis.call('HGET', KEYS[9], ARGV[5])}`,
  // KEYS and ARGV: create's (LUA_CREATE).
  create: `${STEP}${LUA_CREATE}
return {moved, unpack(create({unpack(KEYS, 9)}, {unpack(ARGV, 5)}))}`,
} as const

/** Options of `createRedisStore`. */
export type RedisStoreOptions = {
  readonly call: RedisCall
  /**
   * Another connection to the same Redis for the control reads that copy many animals or entries
   * at a time (name searches, snapshots, journal pages), so that a request's step and /healthz
   * never wait behind their replies on one connection; `call` unless given.
   */
  readonly reads?: RedisCall
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
  /** Told once each time this replica finds its store's data gone from Redis, with what it does about it. */
  readonly onLost?: (message: string) => void
}

// /healthz in one script, which writes, so that a Redis refusing writes (full, read-only) says so.
// KEYS: the probe, the started key (the epoch), every store's animals, the stores of keys. ARGV: the time.
const HEALTH = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', 60000)
return {redis.call('GET', KEYS[2]) or false, redis.call('GET', KEYS[3]) or '0', redis.call('ZCARD', KEYS[4])}`

/** The store port over Redis, with what a replica does at start and what `/healthz` shows. */
export type RedisStore = StorePort & {
  /**
   * Loads the fixture into the shared store unless a replica already did: the first replica to
   * start fills it, the others (and this one after a restart) find it as it is; true when it
   * loaded it. Under isolation it loads nothing (each key's store is made on its first request).
   */
  start(): Promise<Result<boolean, NoRoom>>
  /**
   * How many animals every store holds together, under isolation how many stores are in use, and
   * when this replica last found the store's data gone (ms); rejects with `StoreUnavailable` while
   * Redis cannot serve or write, or the data is gone and not loaded again yet.
   */
  health(): Promise<{ readonly animals: number; readonly stores?: number; readonly lostAt?: number }>
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
  const reads = options.reads ?? call
  const journal = redisJournal(call, reads, shared, options.journalSize)
  const animals = redisAnimals({ call, reads, keysOf, shared, limits })
  const lists = keptLists(limits, options.maxScopes)
  const forget = async (label: string): Promise<void> => void (await Promise.all([rules.clear(label), journal.clear(label)]))
  const tenants = isolate === undefined ? undefined : redisTenants({ call, keysOf, shared, animals, fixture, forget, ...isolate })
  // Back to the fixture: a store of a key only while it is in use (one dropped meanwhile stays dropped).
  const renew = async (label: string): Promise<Result<void, NoRoom>> => {
    const swapped = await animals.swap(keysOf(label), fixture, tenants === undefined ? { kind: 'plain' } : { kind: 'renew', label, at: now(), maxStores: 0 })
    return typeof swapped === 'object' ? fail(swapped) : ok(undefined)
  }

  const epoch = dataEpoch({
    call,
    key: shared.started,
    loadFixture: async () => (tenants === undefined ? mapped(await renew(SHARED_STORE), () => true) : ok(false)),
    forget: () => {
      tenants?.forgetUses()
      lists.clear()
      rules.moved(every)
    },
    now,
    ...definedOnly({ onLost: options.onLost }),
  })
  const context: StepContext = { call, keysOf, shared, every, limits, rules, epoch, lists }

  return {
    animals: { ...animals, renew },
    rules,
    journal,
    tenants: tenants ?? { claim: () => ok(SHARED_STORE), dropIdle: () => undefined, labels: () => [SHARED_STORE] },
    perform: (label, view, taken, operation) => perform(context, label, view, taken, operation),
    answering: () => call.answering(),
    start: epoch.load,
    async health() {
      // Not asked through it: the probe would wait behind the copies it carries.
      if (!reads.answering()) throw new StoreUnavailable('Redis does not answer the connection for control reads (name searches, snapshots, journal pages).')
      const [found, animalsHeld, stores] = (await call.script(HEALTH, [shared.health, shared.started, shared.animals, shared.stores], [String(now())])) as [string | null, string, number]
      if (found !== epoch.current()) {
        const outcome = epoch.met(found)
        if (outcome !== 'adopted') throw outcome
      }
      const lostAt = epoch.lostAt()
      const lost = lostAt === undefined ? {} : { lostAt }
      return tenants === undefined ? { animals: Number(animalsHeld), ...lost } : { animals: Number(animalsHeld), stores, ...lost }
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
  /** The epoch of the data this replica serves, compared by every step. */
  readonly epoch: DataEpoch
  readonly lists: KeptLists
}

/** One request's step in one script: the versions checked, the rule's use counted, the operation done. */
async function perform(context: StepContext, label: string, view: ScopeView, taken: Taken | undefined, operation: Operation | undefined): Promise<Found | typeof STALE> {
  const { call, keysOf, shared, every, rules } = context
  const own = keysOf(label)
  // Without a rule taken, the rule keys are the store's own: the script reads them not.
  const scope = keysOf(taken?.scope ?? label)
  const step = stepOf(operation, label, own, context)
  const keys = [own.version, keysOf(every).version, shared.ruleClock, scope.rules, scope.left, scope.version, shared.ruleCount, shared.started, ...step.keys]
  const args = [view.own.version, view.every.version, taken === undefined ? '' : String(taken.id), context.epoch.current(), ...step.args]
  const [moved, ...found] = (await call.script(STEPS[operation?.kind ?? 'none'], keys, args)) as [number | 'stale' | 'epoch', ...(string | number | null)[]]
  if (moved === 'epoch') {
    // Another replica loaded the data again: start again on it (what this one knew is forgotten).
    const outcome = context.epoch.met(typeof found[0] === 'string' ? found[0] : null)
    if (outcome !== 'adopted') throw outcome
    return STALE
  }
  if (moved === 'stale') {
    rules.moved(label)
    rules.moved(every)
    return STALE
  }
  if (moved === 1 && taken !== undefined) rules.moved(taken.scope)
  return step.found(found)
}

/** What an operation's part of a step's script takes, and what it found from what it answered. */
function stepOf(operation: Operation | undefined, label: string, own: StoreKeys, { shared, limits, lists }: StepContext): { keys: string[]; args: string[]; found: (reply: readonly (string | number | null)[]) => Found } {
  switch (operation?.kind) {
    case undefined:
      return { keys: [], args: [], found: () => ({ kind: 'none' }) }
    case 'list': {
      const { limit, status } = operation
      const answers = lists.of(label)
      // Taken now: the answer the step's reply may say is still the store's, whatever replies come meanwhile.
      const kept = answers.kept(limit, status)
      const found = ([revision, ...read]: readonly (string | number | null)[]): Found => {
        if (kept !== undefined && revision === kept.revision) return { kind: 'list', json: kept.json }
        // An index member without its animal (none: one script writes both) is left out, not written as an empty element.
        const texts = read.filter((text) => typeof text === 'string')
        if (typeof revision !== 'string' || revision === '') return { kind: 'list', json: jsonArray(texts, limit) }
        return { kind: 'list', json: answers.json(texts, limit, status, revision) }
      }
      return { keys: [status === undefined ? own.order : own.status(status), own.animal, own.data, own.last], args: [String(limit), kept?.revision ?? ''], found }
    }
    case 'get':
      return { keys: [own.animal], args: [memberOf(operation.id)], found: ([json]) => ({ kind: 'get', id: operation.id, json: typeof json === 'string' ? json : undefined }) }
    case 'create': {
      const { keys, args } = creation(own, shared, limits, [operation.newPet])
      return { keys, args, found: (reply) => ({ kind: 'create', created: mapped(createdOf(reply, 1), ({ firstId, json }) => ({ id: firstId, json })) }) }
    }
  }
}
