import type { AnimalGenerator } from '../fake/assemble-fake.js'
import { seedStopped } from '../fake/assemble-fake.js'
import { CONTROL_BASE, type Control, controlBodyLimit, credentialCheck, findRoute, idOf, journalPageResponse, readForcedRule, readJournalFilter, readJson, readJsonBytes, readLatency, routeFinder, ruleNotFound, snapshotBodyLimit } from '../fake/control.js'
import { joinFixture } from '../fake/fixture.js'
import { parseSeedRequest } from '../fake/seed-request.js'
import { invalidSnapshot, parseSnapshotGradually } from '../fake/snapshot.js'
import { authenticate, type KeyPolicy } from '../service/auth.js'
import { DEFAULT_BUDGET_LIMITS, noRoomForAnimals } from '../service/budget.js'
import { type ApiError, apiError, FakeInputError, orThrow, toErrorResponse } from '../service/errors.js'
import { constantFields, JSON_TYPE, type PlainRequest, type PlainResponse, type Result } from '../service/http.js'
import type { Int64 } from '../spec/animals-service.js'
import { RedisUnavailable } from './connection.js'
import type { RedisAnimals } from './redis-animals.js'
import type { RedisApi } from './redis-api.js'
import { storeUnavailable } from './redis-responder.js'
import { EVERY_STORE } from './redis-scopes.js'

/** Options of `createRedisControl`. */
export type RedisControlOptions = {
  readonly api: RedisApi
  readonly keys: KeyPolicy
  /** When set, every control request must send it in `X-Control-Token`. */
  readonly token?: string
  /** The most animals every store together holds (`--max-animals`). */
  readonly maxAnimals: number
  readonly generate: AnimalGenerator
  readonly random: () => number
  /** Lets other work run between chunks of a snapshot being read. */
  readonly pause: () => Promise<void>
}

/** Which store a control request acts on: a key's (the shared one without isolation), or every store under isolation. */
type Target = { readonly token: string | undefined }

type RedisRoute = (request: PlainRequest, target: Target, options: RedisControlOptions, id: string) => Promise<PlainResponse>

/** Animals generated and created per script while seeding: one step of Redis's, a few milliseconds. */
const SEED_CHUNK = 1000

const CONTROL_JSON = constantFields({ 'content-type': JSON_TYPE })

// The controls whose state is in Redis: the store pages (animals, stores) still read one process's stores (issue 49).
const ROUTES: Readonly<Record<string, RedisRoute>> = {
  'GET /': (_request, target, options) => summary(target, options),
  'POST /reset': async (_request, target, options) => {
    orThrow(await (target.token === undefined ? options.api.reset() : options.api.resetKey(target.token)))
    return summary(target, options)
  },
  'POST /seed': async (request, target, options) => {
    const store = await namedStore(target, options.api)
    const { count, ...seedOptions } = orThrow(parseSeedRequest(readJson(request, 'an object such as {"count": 100, "seed": 7}')))
    const { animals } = await options.api.counts()
    if (animals + count > options.maxAnimals) throw noRoomForAnimals(count, animals, options.maxAnimals)
    const next = await options.generate({ ...seedOptions, seed: seedOptions.seed ?? Math.floor(options.random() * 2 ** 32) })
    let firstId: Int64 | null = null
    let lastId: Int64 | null = null
    for (let added = 0; added < count; added += SEED_CHUNK) {
      const made = await store.createMany(Array.from({ length: Math.min(SEED_CHUNK, count - added) }, next))
      // What was added stays (creations through the API may sit between its ids): the answer says so.
      if (!made.ok) throw new FakeInputError(added === 0 ? made.error : seedStopped(made.error, { added, count, firstId, lastId }))
      firstId ??= made.value.firstId
      lastId = made.value.lastId
    }
    return json(201, { added: count, firstId: idOf(firstId), lastId: idOf(lastId), animals: await store.size() })
  },
  'GET /snapshot': async (_request, target, options) => {
    const store = await namedStore(target, options.api)
    return { status: 200, headers: CONTROL_JSON, body: joinFixture(await store.texts()) }
  },
  'PUT /snapshot': async (request, target, options) => {
    const store = await namedStore(target, options.api)
    const pets = await parseSnapshotGradually(readJsonBytes(request, 'a JSON array of animals'), { pause: options.pause, maxAnimals: options.maxAnimals })
    if (!pets.ok) throw invalidSnapshot(pets.error)
    orThrow(await store.replace(pets.value))
    return json(200, { animals: await store.size() })
  },
  'GET /forced': async (_request, target, { api }) => json(200, { rules: await api.scopes.list(await scopeOf(target, api)) }),
  'POST /forced': async (request, target, { api }) => json(201, await api.scopes.add((await scopeOf(target, api)) ?? EVERY_STORE, readForcedRule(request))),
  'DELETE /forced': async (_request, target, { api }) => {
    await api.scopes.remove(await scopeOf(target, api))
    return noContent()
  },
  'DELETE /forced/:id': async (_request, target, { api }, id) => ((await api.scopes.remove(await scopeOf(target, api), Number(id))) ? noContent() : ruleNotFound(id)),
  'GET /journal': async (request, target, { api }) => journalPageResponse(await api.journal.page(await scopeOf(target, api), readJournalFilter(request))),
  'DELETE /journal': async (_request, target, { api }) => {
    await api.journal.clear(await scopeOf(target, api))
    return noContent()
  },
  'GET /latency': async (_request, target, { api }) => json(200, await api.scopes.latency((await scopeOf(target, api)) ?? EVERY_STORE)),
  'PUT /latency': async (request, target, { api }) => {
    const scope = (await scopeOf(target, api)) ?? EVERY_STORE
    await api.scopes.setLatency(scope, readLatency(request))
    return json(200, await api.scopes.latency(scope))
  },
}

const findRedisRoute = routeFinder(ROUTES)

/**
 * The control API of `serve --store`: reset, seed and snapshot export and import, acting on the
 * store in Redis that every replica shares (under isolation, the store of the key sent, or with no
 * key every store for reset), forced rules and latency, which every replica reads, and the journal
 * of every replica's requests. The store pages answer 404 saying they are not served with --store yet. Guarded as the in-memory control API is.
 */
export function createRedisControl(options: RedisControlOptions): Control {
  const refuseCredential = credentialCheck(options.token, options.keys)
  const snapshotLimit = snapshotBodyLimit(options.maxAnimals, DEFAULT_BUDGET_LIMITS.maxTextChars)

  function targetOf(request: PlainRequest): Result<Target, ApiError> {
    if (new URLSearchParams(request.search).has('store')) {
      return { ok: false, error: apiError('invalid_parameter', 'With --store a store is named by its key (Authorization: Bearer <key>), not by a label.') }
    }
    if (request.headers.authorization === undefined) return { ok: true, value: { token: undefined } }
    const auth = authenticate(request.headers.authorization, options.keys)
    return auth.ok ? { ok: true, value: { token: auth.value } } : auth
  }

  return {
    admit(request) {
      return refuseCredential(request) ?? refusalOf(request.method, request.path === '' ? '/' : request.path)
    },
    bodyLimit: (method, path) => controlBodyLimit(method, path, snapshotLimit),
    async handle(request) {
      const refused = refuseCredential(request) ?? refusalOf(request.method, request.path === '' ? '/' : request.path)
      if (refused !== undefined) return refused
      const target = targetOf(request)
      if (!target.ok) return toErrorResponse(target.error)
      const found = findRedisRoute(request.method, request.path === '' ? '/' : request.path)
      if (!('handler' in found)) return found.refusal
      try {
        return await found.handler(request, target.value, options, found.id)
      } catch (error) {
        if (error instanceof FakeInputError) return toErrorResponse(error.apiError)
        if (error instanceof RedisUnavailable) return toErrorResponse(storeUnavailable(error))
        throw error
      }
    },
  }
}

/** The 404 or 405 of a request no control here takes: a control of the in-memory fake's alone says it is not kept with --store yet. */
function refusalOf(method: string, path: string): PlainResponse | undefined {
  const found = findRedisRoute(method, path)
  if ('handler' in found) return undefined
  if ('handler' in findRoute(method, path)) {
    return toErrorResponse(apiError('route_not_found', `${method} ${CONTROL_BASE}${path} is not served with --store yet: the store pages read one process's stores, not Redis.`))
  }
  return found.refusal
}

/** The store a request names by its key; under isolation, one must be named. */
async function namedStore(target: Target, api: RedisApi): Promise<RedisAnimals> {
  if (target.token !== undefined) return orThrow(await api.storeOf(target.token))
  if (api.isolated) throw new FakeInputError(apiError('store_not_named', 'Under isolation, name the store: send its key (Authorization: Bearer <key>).'))
  return api.store
}

/**
 * The scope of forced rules and latency a control request acts on, as in memory: the one store's
 * without isolation; under isolation the store of the key sent, or every store (`undefined`) without one.
 */
async function scopeOf(target: Target, api: RedisApi): Promise<string | undefined> {
  if (!api.isolated) return api.store.label
  return target.token === undefined ? undefined : (await namedStore(target, api)).label
}

/** The control API's summary, as in memory: the animals of the store named (null for every store under isolation), its journal's entries and its forced rules. */
async function summary(target: Target, options: RedisControlOptions): Promise<PlainResponse> {
  const animals = target.token === undefined && options.api.isolated ? null : await (await namedStore(target, options.api)).size()
  const scope = await scopeOf(target, options.api)
  const [rules, journal] = await Promise.all([options.api.scopes.list(scope), options.api.journal.page(scope, { limit: 1 })])
  return json(200, { animals, journal: journal.total, forcedRules: rules.length })
}

function noContent(): PlainResponse {
  return { status: 204, headers: {} }
}

function json(status: number, value: unknown): PlainResponse {
  return { status, headers: CONTROL_JSON, body: JSON.stringify(value) }
}
