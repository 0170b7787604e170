import { createFoundHeaders, createListQueryCache, createdReply, finishReply, foundReply, heldTo, listedReply, matchRoute, type Operation, planOperation, preferredOutcome, preflight, type Route } from '../fake/app.js'
import { authenticate, type KeyPolicy } from '../service/auth.js'
import { type ApiError, apiError, toErrorResponse } from '../service/errors.js'
import type { Handler, PlainRequest, PlainResponse, Reply, Result } from '../service/http.js'
import type { Pet } from '../spec/animals-service.js'
import { type Latency, pickDelay } from '../fake/latency.js'
import { type RedisConnection, RedisUnavailable } from './connection.js'
import { budgetKey, prepareLoad, redisAnimals, type RedisAnimals, type RedisLoad } from './redis-animals.js'
import { redisTenants } from './redis-tenants.js'

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
   * Added to every API answer (`--latency`): the same on every replica started with the same
   * option. It is not changed at run time (the control API's latency is not kept in Redis yet).
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
  /** One key's store back to the fixture (the shared store without isolation); ids go on. */
  resetKey(token: string): Promise<Result<void, ApiError>>
}

/** The label of the one store every key shares. */
export const SHARED_LABEL = 'shared'

/**
 * The API as the in-memory fake answers it (the same routes, checks, Error bodies, Prefer and
 * deprecation headers, from `fake/app.ts`), with each operation performed in Redis. A request
 * Redis does not answer in time gets 503 `store_unavailable`, never a hang. Under isolation each key
 * has a store of its own, the same through every replica (`redis-tenants.ts`). Forced rules, the
 * journal and a latency changed at run time are not kept in Redis yet (issue 49).
 */
export function createRedisApi(options: RedisApiOptions): RedisApi {
  const { connection, prefix, keys, maxAnimals } = options
  const store = redisAnimals({ call: connection, prefix, label: SHARED_LABEL, maxAnimals })
  const fixture = prepareLoad(options.fixture)
  const tenants = options.isolate === undefined ? undefined : redisTenants({ call: connection, prefix, maxAnimals, fixture, ...options.isolate })
  const sharedStore = Promise.resolve({ ok: true, value: store } as const)
  const storeFor = (token: string): Promise<Result<RedisAnimals, ApiError>> => (tenants === undefined ? sharedStore : tenants.forToken(token))
  const foundHeadersFor = createFoundHeaders()
  const listQuery = createListQueryCache()
  const started = `${prefix}{${SHARED_LABEL}}:started`

  async function perform(operation: Operation, request: PlainRequest, token: string): Promise<PlainResponse> {
    try {
      // A key's store is found (or made) first, as the in-memory fake does: its refusal comes before any other answer.
      const found = await storeFor(token)
      if (!found.ok) return toErrorResponse(found.error)
      const store = found.value
      switch (operation.kind) {
        case 'answer':
          return operation.response
        case 'list':
          return listedReply(await store.listJson(operation.query.limit, operation.query.status))
        case 'get':
          return foundReply(operation.id, await store.get(operation.id), foundHeadersFor(request.basePath))
        case 'create': {
          const created = await store.create(operation.newPet)
          return created.ok ? createdReply(created.value.id, created.value.json, request.basePath) : toErrorResponse(created.error)
        }
      }
    } catch (error) {
      if (error instanceof RedisUnavailable) return toErrorResponse(storeUnavailable(error))
      throw error
    }
  }

  function respond(route: Route | undefined, request: PlainRequest): PlainResponse | Promise<PlainResponse> {
    const auth = authenticate(request.headers.authorization, keys)
    if (!auth.ok) return toErrorResponse(auth.error)
    const preferred = options.prefer ? preferredOutcome(request) : undefined
    // Under isolation the key's store comes first, as in memory: a key refused a store gets that refusal.
    if (preferred?.kind === 'reply') return tenants === undefined ? preferred.reply : perform({ kind: 'answer', response: preferred.reply }, request, auth.value)
    const operation = planOperation(route, request, listQuery)
    const response = operation.kind === 'answer' && tenants === undefined ? operation.response : perform(operation, request, auth.value)
    if (preferred === undefined) return response
    return response instanceof Promise ? response.then((answer) => heldTo(preferred.status, answer)) : heldTo(preferred.status, response)
  }

  const finish = (route: Route | undefined, request: PlainRequest, answer: PlainResponse): Reply => delayed(finishReply(route, request, answer), options.latency)

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
      return response instanceof Promise ? response.then((answer) => finish(route, request, answer)) : finish(route, request, response)
    },
    start: () =>
      orUnavailable(async () => {
        if (tenants === undefined) return loadOnce(connection, started, store, fixture)
        // Each key's store is made on its first request: a start only makes sure Redis answers.
        await tenants.count()
        return { ok: true, value: false }
      }),
    reset: () => orUnavailable(() => (tenants === undefined ? store.replace(fixture) : tenants.renewAll())),
    isolated: tenants !== undefined,
    storeOf: (token) => orUnavailable(() => storeFor(token)),
    resetKey: (token) =>
      orUnavailable(() => (tenants === undefined ? store.replace(fixture) : tenants.renew(token))),
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

/** The API's answer held back by `--latency`, as in memory: every answer but a preflight. */
function delayed(reply: Reply, latency: RedisApiOptions['latency']): Reply {
  const delayMs = latency === undefined ? 0 : pickDelay(latency.latency, latency.random)
  return delayMs === 0 ? reply : { ...reply, delayMs }
}

/** The 503 of a request whose store did not answer. */
export function storeUnavailable(error: RedisUnavailable): ApiError {
  return apiError('store_unavailable', `${error.message} Try again: a creation that got this answer may or may not have been stored.`, { 'retry-after': '1' })
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
