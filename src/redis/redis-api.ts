import { createFoundHeaders, createListQueryCache, createdReply, finishReply, foundReply, heldTo, listedReply, matchRoute, type Operation, planOperation, preferredOutcome, preflight, type Route } from '../fake/app.js'
import { authenticate, type KeyPolicy } from '../service/auth.js'
import { type ApiError, apiError, toErrorResponse } from '../service/errors.js'
import type { Handler, PlainRequest, PlainResponse, Reply, Result } from '../service/http.js'
import type { Pet } from '../spec/animals-service.js'
import { type RedisConnection, RedisUnavailable } from './connection.js'
import { redisAnimals, type RedisAnimals } from './redis-animals.js'

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
}

/** The animals API over one store in Redis, shared by every replica with the same Redis and prefix. */
export type RedisApi = Handler & {
  readonly store: RedisAnimals
  /**
   * Loads the fixture into the store unless a replica already did: the first replica to start
   * fills it, the others (and this one after a restart) find it as it is. True when it loaded it.
   */
  start(): Promise<Result<boolean, ApiError>>
  /** Every animal back to the fixture; ids go on after the highest ever handed out. */
  reset(): Promise<Result<void, ApiError>>
}

/** The label of the one store every key shares. */
export const SHARED_LABEL = 'shared'

/**
 * The API as the in-memory fake answers it (the same routes, checks, Error bodies, Prefer and
 * deprecation headers, from `fake/app.ts`), with each operation performed in Redis. A request
 * Redis does not answer in time gets 503 `store_unavailable`, never a hang. Forced rules, latency
 * and the journal are not kept in Redis yet (issue 49).
 */
export function createRedisApi(options: RedisApiOptions): RedisApi {
  const { connection, prefix, keys, maxAnimals } = options
  const store = redisAnimals({ call: connection, prefix, label: SHARED_LABEL, maxAnimals })
  const foundHeadersFor = createFoundHeaders()
  const listQuery = createListQueryCache()
  const started = `${prefix}{${SHARED_LABEL}}:started`

  async function perform(operation: Exclude<Operation, { kind: 'answer' }>, request: PlainRequest): Promise<PlainResponse> {
    try {
      switch (operation.kind) {
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
    if (preferred?.kind === 'reply') return preferred.reply
    const operation = planOperation(route, request, listQuery)
    const response = operation.kind === 'answer' ? operation.response : perform(operation, request)
    if (preferred === undefined) return response
    return response instanceof Promise ? response.then((answer) => heldTo(preferred.status, answer)) : heldTo(preferred.status, response)
  }

  const load = (): Promise<Result<void, ApiError>> => orUnavailable(() => store.replace(options.fixture))
  return {
    store,
    handle(request): Reply | Promise<Reply> {
      const route = matchRoute(request.path)
      if (request.method === 'OPTIONS') return preflight(route, request.headers)
      const response = respond(route, request)
      return response instanceof Promise ? response.then((answer) => finishReply(route, request, answer)) : finishReply(route, request, response)
    },
    start: () =>
      orUnavailable(async () => {
        if ((await connection.command(['EXISTS', started])) === 1) return { ok: true, value: false }
        // Replicas starting together may each load the fixture: the same animals, the later swap last.
        const loaded = await store.replace(options.fixture)
        if (!loaded.ok) return loaded
        await connection.command(['SET', started, '1'])
        return { ok: true, value: true }
      }),
    reset: load,
  }
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
