import { finishReply, matchRoute, preflight } from '../fake/app.js'
import type { KeyPolicy } from '../service/auth.js'
import type { ApiError } from '../service/errors.js'
import type { Handler, Reply, Result } from '../service/http.js'
import type { Pet } from '../spec/animals-service.js'
import { type Latency, NO_LATENCY } from '../fake/latency.js'
import { type RedisConnection, RedisUnavailable } from './connection.js'
import { budgetKey, prepareLoad, redisAnimals, type RedisAnimals, type RedisLoad } from './redis-animals.js'
import { redisTenants } from './redis-tenants.js'
import { createResponder, storeUnavailable } from './redis-responder.js'
import { type RedisScopes, redisScopes } from './redis-scopes.js'

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
  /** One key's store back to the fixture, without its forced rules and latency (the shared store without isolation); ids go on. */
  resetKey(token: string): Promise<Result<void, ApiError>>
  /** The forced rules and latencies every replica reads. */
  readonly scopes: RedisScopes
}

/** The label of the one store every key shares. */
export const SHARED_LABEL = 'shared'

/**
 * The API as the in-memory fake answers it (the same routes, checks, Error bodies, Prefer and
 * deprecation headers, from `fake/app.ts`), with each operation performed in Redis. A request
 * Redis does not answer in time gets 503 `store_unavailable`, never a hang. Under isolation each key
 * has a store of its own, the same through every replica (`redis-tenants.ts`). Forced rules and
 * latencies are kept in Redis too (`redis-scopes.ts`); the journal is not yet (issue 49).
 */
export function createRedisApi(options: RedisApiOptions): RedisApi {
  const { connection, prefix, keys, maxAnimals } = options
  const store = redisAnimals({ call: connection, prefix, label: SHARED_LABEL, maxAnimals })
  const fixture = prepareLoad(options.fixture)
  const scopes = redisScopes({ call: connection, prefix, startLatency: options.latency?.latency ?? NO_LATENCY })
  const random = options.latency?.random ?? Math.random
  // A store dropped for being idle takes its rules and latency with it, as in memory.
  const onDrop = (label: string): Promise<void> => scopes.clear(label)
  const tenants = options.isolate === undefined ? undefined : redisTenants({ call: connection, prefix, maxAnimals, fixture, onDrop, ...options.isolate })
  const sharedStore = Promise.resolve({ ok: true, value: store } as const)
  const storeFor = (token: string): Promise<Result<RedisAnimals, ApiError>> => (tenants === undefined ? sharedStore : tenants.forToken(token))
  const started = `${prefix}{${SHARED_LABEL}}:started`

  const respond = createResponder({ keys, prefer: options.prefer, scopes, storeFor, random })

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
      const response = respond(route, request)
      return response instanceof Promise ? response.then((answer) => finishReply(route, request, answer)) : finishReply(route, request, response)
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
        await scopes.clear(undefined)
        return tenants === undefined ? store.replace(fixture) : tenants.renewAll()
      }),
    isolated: tenants !== undefined,
    storeOf: (token) => orUnavailable(() => storeFor(token)),
    resetKey: (token) =>
      orUnavailable(async () => {
        if (tenants === undefined) {
          await scopes.clear(undefined)
          return store.replace(fixture)
        }
        const renewed = await tenants.renew(token)
        if (!renewed.ok) return renewed
        await scopes.clear(renewed.value.label)
        return { ok: true, value: undefined }
      }),
    scopes,
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
