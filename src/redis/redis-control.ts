import type { AnimalGenerator } from '../fake/assemble-fake.js'
import { seedStopped } from '../fake/assemble-fake.js'
import { animalsPage, CONTROL_BASE, type Control, controlBodyLimit, credentialCheck, documentResponse, findRoute, idOf, journalPageResponse, namedPageOf, type PageHead, type PageQuery, readForcedRule, readJournalFilter, readJson, readJsonBytes, readLatency, readPageQuery, routeFinder, ruleNotFound, snapshotBodyLimit, storeNotNamed, unknownLabel } from '../fake/control.js'
import { MAX_NAME_SCAN } from '../fake/animal-search.js'
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
  /** The control API's own OpenAPI document (YAML), served at `/__control/openapi.yaml`. */
  readonly document?: string
  /** Lets other work run between chunks of a snapshot being read. */
  readonly pause: () => Promise<void>
}

/**
 * Which store a control request acts on, as in memory: without isolation the shared one; under
 * isolation the store labelled in `?store=`, else the key's, else every store.
 */
type Target = { readonly token: string | undefined; readonly label: string | undefined }

type RedisRoute = (request: PlainRequest, target: Target, options: RedisControlOptions, id: string) => Promise<PlainResponse>

/** Animals generated and created per script while seeding: one step of Redis's, a few milliseconds. */
const SEED_CHUNK = 1000

const CONTROL_JSON = constantFields({ 'content-type': JSON_TYPE })

// Every control of the in-memory fake but the pact recorder's (--record-pact records one process's requests).
const ROUTES: Readonly<Record<string, RedisRoute>> = {
  'GET /': (_request, target, options) => summary(target, options),
  'POST /reset': async (_request, target, options) => {
    const scope = await scopeOf(target, options.api)
    orThrow(await (scope === undefined || !options.api.isolated ? options.api.reset() : options.api.resetStore(await namedStore(target, options.api))))
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
  'GET /animals': async (request, target, { api }) => {
    const store = await namedStore(target, api)
    const query = readPageQuery(request)
    const counts = await store.counts()
    // A search reads no more animals than it scans (MAX_NAME_SCAN), however large the store.
    const size = query.status === undefined ? Object.values(counts).reduce((sum, count) => sum + count, 0) : counts[query.status]
    const head = query.name === undefined ? await pageIn(store, query) : await namedPageOf(await store.texts(query.status, MAX_NAME_SCAN), query.name, query, size)
    return animalsPage(head, query, counts)
  },
  'GET /stores': async (_request, _target, { api }) => {
    const stores = await Promise.all(
      (await api.stores()).map(async (store) => {
        const counts = await store.counts()
        return { label: store.label, animals: Object.values(counts).reduce((sum, count) => sum + count, 0), counts }
      }),
    )
    return json(200, { isolated: api.isolated, stores })
  },
  'GET /openapi.yaml': async (request, _target, { document }) => documentResponse(document, request.path),
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
 * key every store for reset), forced rules and latency, which every replica reads, the journal of
 * every replica's requests, and the store pages. Only `POST /pact` answers 404: --record-pact
 * records one process's requests. Guarded as the in-memory control API is.
 */
export function createRedisControl(options: RedisControlOptions): Control {
  const refuseCredential = credentialCheck(options.token, options.keys)
  const snapshotLimit = snapshotBodyLimit(options.maxAnimals, DEFAULT_BUDGET_LIMITS.maxTextChars)

  function targetOf(request: PlainRequest): Result<Target, ApiError> {
    const label = options.api.isolated ? (new URLSearchParams(request.search).get('store') ?? undefined) : undefined
    if (label !== undefined || request.headers.authorization === undefined) return { ok: true, value: { token: undefined, label } }
    const auth = authenticate(request.headers.authorization, options.keys)
    return auth.ok ? { ok: true, value: { token: auth.value, label } } : auth
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
    return toErrorResponse(apiError('route_not_found', `${method} ${CONTROL_BASE}${path} is not served with --store: --record-pact records the requests of one process.`))
  }
  return found.refusal
}

/** The store a request names by its label or its key; under isolation, one must be named. */
async function namedStore({ token, label }: Target, api: RedisApi): Promise<RedisAnimals> {
  if (label !== undefined) {
    const labelled = await api.labelled(label)
    if (labelled === undefined) throw new FakeInputError(unknownLabel(label))
    return labelled
  }
  if (token !== undefined) return orThrow(await api.storeOf(token))
  if (api.isolated) throw new FakeInputError(storeNotNamed())
  return api.store
}

/**
 * The scope of forced rules and latency a control request acts on, as in memory: the one store's
 * without isolation; under isolation the store of the key sent, or every store (`undefined`) without one.
 */
async function scopeOf(target: Target, api: RedisApi): Promise<string | undefined> {
  if (!api.isolated) return api.store.label
  return target.token === undefined && target.label === undefined ? undefined : (await namedStore(target, api)).label
}

/** The control API's summary, as in memory: the animals of the store named (null for every store under isolation), its journal's entries and its forced rules. */
async function summary(target: Target, options: RedisControlOptions): Promise<PlainResponse> {
  const scope = await scopeOf(target, options.api)
  const animals = scope === undefined ? null : await (await namedStore(target, options.api)).size()
  const [rules, journal] = await Promise.all([options.api.scopes.list(scope), options.api.journal.page(scope, { limit: 1 })])
  return json(200, { animals, journal: journal.total, forcedRules: rules.length })
}

/** A page of a store's animals read in one step: the ids' range (from an offset, or from an id) and their texts. */
async function pageIn(store: RedisAnimals, query: PageQuery): Promise<PageHead> {
  const { total, offset, texts } = await store.page(query.status, query.from === undefined ? { offset: query.offset } : { from: query.from }, query.limit)
  return { summary: { total, offset }, texts }
}

function noContent(): PlainResponse {
  return { status: 204, headers: {} }
}

function json(status: number, value: unknown): PlainResponse {
  return { status, headers: CONTROL_JSON, body: JSON.stringify(value) }
}
