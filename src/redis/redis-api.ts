import { finishReply, matchRoute, preflight, type Route } from '../fake/app.js'
import { JOURNAL_SIZE } from '../fake/journal.js'
import { nextTurn } from '../fake/next-turn.js'
import type { KeyPolicy } from '../service/auth.js'
import type { ApiError } from '../service/errors.js'
import { type Handler, isDropped, type PlainRequest, type Reply, type Result } from '../service/http.js'
import type { Pet } from '../spec/animals-service.js'
import { type Latency, NO_LATENCY } from '../fake/latency.js'
import { type RedisConnection, RedisUnavailable } from './connection.js'
import { budgetKey, prepareLoad, redisAnimals, type RedisAnimals, type RedisLoad } from './redis-animals.js'
import { redisTenants } from './redis-tenants.js'
import { type Answered, createResponder, storeUnavailable } from './redis-responder.js'
import { redisJournal, type RedisJournal } from './redis-journal.js'
import { EVERY_STORE, type RedisScopes, redisScopes } from './redis-scopes.js'

/** Options of `createRedisApi`. */
export type RedisApiOptions = {
  readonly connection: RedisConnection
  /** Where every key starts (`DEFAULT_PREFIX`): replicas of one fake share it. */
  readonly prefix: string
  readonly keys: KeyPolicy
  /** The most animals every store together holds (`--max-animals`). */
  readonly maxAnimals: number
  /** Whether `Prefer: code=NNN` chooses a request's answer, as in the in-memory fake. */
  readonly prefer: boolean
  /** The animals the store starts from, the first time any replica starts, and returns to on reset. */
  readonly fixture: readonly Pet[]
  /** One store per bearer key (`--isolate`), each made from the fixture on its key's first request through any replica. */
  readonly isolate?: RedisIsolation
  /** How many requests each store's journal keeps (`JOURNAL_SIZE` unless given); 0 keeps none and writes nothing per request. */
  readonly journalSize?: number
  /** The time a request arrived, for the journal: `Date.now` unless given. */
  readonly now?: () => number
  /** Lets other work run while a journal page is read: `nextTurn` unless given. */
  readonly pause?: () => Promise<void>
  /**
   * The latency of every API answer until the control API sets another (`--latency`): the same
   * on every replica started with the same option. `random` picks a delay in a range.
   */
  readonly latency?: { readonly latency: Latency; readonly random: () => number }
}

/** How `--isolate` keeps a store per key in Redis: see `RedisTenantsOptions`. */
export type RedisIsolation = { readonly secret: string; readonly maxStores: number; readonly idleMs: number; readonly now: () => number }

/** The animals API over one store in Redis, shared by every replica with the same Redis and prefix. */
export type RedisApi = Handler & {
  /** The one store every key shares (without isolation). */
  readonly store: RedisAnimals
  /** How many animals every store holds together, and under isolation how many stores are in use. */
  counts(): Promise<{ readonly animals: number; readonly stores?: number }>
  /**
   * Loads the fixture into the store unless a replica already did: the first replica to start
   * fills it, the others (and this one after a restart) find it as it is. True when it loaded it.
   * Under isolation it loads nothing (each key's store is made on its first request): false.
   */
  start(): Promise<Result<boolean, ApiError>>
  /** Every animal back to the fixture (under isolation, of every store in use); ids go on after the highest ever handed out. */
  reset(): Promise<Result<void, ApiError>>
  readonly isolated: boolean
  /** The store of an accepted key: the shared one, or under isolation its own (made on first use). */
  storeOf(token: string): Promise<Result<RedisAnimals, ApiError>>
  /** Every store in use: the shared one, or under isolation each key's. */
  stores(): Promise<RedisAnimals[]>
  /** Under isolation, the store in use with this label (`?store=<label>`); none without isolation. */
  labelled(label: string): Promise<RedisAnimals | undefined>
  /** One store under isolation back to the fixture, without its forced rules, latency and journal; ids go on. */
  resetStore(store: RedisAnimals): Promise<Result<void, ApiError>>
  /** The forced rules and latencies every replica reads. */
  readonly scopes: RedisScopes
  /** The requests every replica answered, by scope. */
  readonly journal: RedisJournal
}

/** The label of the one store every key shares. */
export const SHARED_LABEL = 'shared'

/**
 * The API as the in-memory fake answers it (the same routes, checks, Error bodies, Prefer and
 * deprecation headers, from `fake/app.ts`), with each operation performed in Redis. A request
 * Redis does not answer in time gets 503 `store_unavailable`, never a hang. Under isolation each key
 * has a store of its own, the same through every replica (`redis-tenants.ts`). Forced rules and
 * latencies are kept in Redis too (`redis-scopes.ts`), and so is the journal (`redis-journal.ts`).
 */
export function createRedisApi(options: RedisApiOptions): RedisApi {
  const { connection, prefix, keys, maxAnimals } = options
  const store = redisAnimals({ call: connection, prefix, label: SHARED_LABEL, maxAnimals })
  const fixture = prepareLoad(options.fixture)
  const scopes = redisScopes({ call: connection, prefix, startLatency: options.latency?.latency ?? NO_LATENCY })
  const random = options.latency?.random ?? Math.random
  const journal = redisJournal({ call: connection, prefix, pause: options.pause ?? nextTurn, size: options.journalSize ?? JOURNAL_SIZE })
  // What a test changed besides the animals: a scope's (`undefined`: every scope's) rules, latency and journal.
  const forget = async (label: string | undefined): Promise<void> => void (await Promise.all([scopes.clear(label), journal.clear(label)]))
  // A store dropped for being idle takes its rules, latency and journal with it, as in memory.
  const tenants = options.isolate === undefined ? undefined : redisTenants({ call: connection, prefix, maxAnimals, fixture, onDrop: forget, ...options.isolate })
  const sharedStore = Promise.resolve({ ok: true, value: store } as const)
  const storeFor = (token: string): Promise<Result<RedisAnimals, ApiError>> => (tenants === undefined ? sharedStore : tenants.forToken(token))
  const started = `${prefix}{${SHARED_LABEL}}:started`

  // The requests no store took (no key, a store refused) belong to the shared store's scope, or under isolation every store's.
  const unclaimed = tenants === undefined ? SHARED_LABEL : EVERY_STORE
  const respond = createResponder({ keys, prefer: options.prefer, scopes, storeFor, random, unclaimed })
  const record = journalRecorder(journal, unclaimed)
  const now = options.now ?? Date.now

  return {
    store,
    async counts() {
      if (tenants === undefined) return { animals: await store.size() }
      const [animals, stores] = await Promise.all([connection.command(['GET', budgetKey(prefix)]), tenants.count()])
      return { animals: Number(animals ?? 0), stores }
    },
    handle(request): Reply | Promise<Reply> {
      const route = matchRoute(request.path)
      if (request.method === 'OPTIONS') return preflight(route, request.headers)
      const receivedAt = now()
      const answer = respond(route, request)
      return answer instanceof Promise ? answer.then((done) => record(route, request, done, receivedAt)) : record(route, request, answer, receivedAt)
    },
    start: () =>
      orUnavailable(async () => {
        if (tenants === undefined) return loadOnce(connection, started, store, fixture)
        // Each key's store is made on its first request: a start only makes sure Redis answers.
        await tenants.count()
        return { ok: true, value: false }
      }),
    reset: () =>
      orUnavailable(async () => {
        await forget(undefined)
        return tenants === undefined ? store.replace(fixture) : tenants.renewAll()
      }),
    isolated: tenants !== undefined,
    storeOf: (token) => orUnavailable(() => storeFor(token)),
    stores: async () => (tenants === undefined ? [store] : tenants.inUse()),
    labelled: async (label) => tenants?.labelled(label),
    resetStore: (one) =>
      orUnavailable(async () => {
        const renewed = await (tenants === undefined ? one.replace(fixture) : tenants.renew(one))
        if (renewed.ok) await forget(one.label)
        return renewed
      }),
    scopes,
    journal,
  }
}

/**
 * Finishes an answer as in memory (deprecation, HEAD) and keeps it in its store's journal before it
 * goes out, so that a request answered is read at once through any replica. A journal Redis cannot
 * keep does not undo the answer: the request was served, its entry is lost.
 */
function journalRecorder(journal: RedisJournal, unclaimed: string) {
  return async (route: Route | undefined, request: PlainRequest, { reply: answer, outcome, label }: Answered, receivedAt: number): Promise<Reply> => {
    const reply = finishReply(route, request, answer)
    const dropped = isDropped(reply)
    try {
      await journal.record(label ?? unclaimed, { request, receivedAt, tenant: label, status: dropped ? null : reply.status, forced: outcome !== 'answered', outcome, delayMs: reply.delayMs ?? 0, ...(dropped ? {} : { response: reply }) })
    } catch (error) {
      if (!(error instanceof RedisUnavailable)) throw error
    }
    return reply
  }
}

/** Loads the fixture into the shared store unless a replica did (marked by `started`); true when this call loaded it. */
async function loadOnce(connection: RedisConnection, started: string, store: RedisAnimals, fixture: RedisLoad): Promise<Result<boolean, ApiError>> {
  if ((await connection.command(['EXISTS', started])) === 1) return { ok: true, value: false }
  // Replicas starting together may each load the fixture: the same animals, the later swap last.
  const loaded = await store.replace(fixture)
  if (!loaded.ok) return loaded
  await connection.command(['SET', started, '1'])
  return { ok: true, value: true }
}

/** `work`'s result, or the 503 of a store that did not answer. */
async function orUnavailable<T>(work: () => Promise<Result<T, ApiError>>): Promise<Result<T, ApiError>> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof RedisUnavailable) return { ok: false, error: storeUnavailable(error) }
    throw error
  }
}
