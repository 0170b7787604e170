import { authenticate, constantTimeEqual, type KeyPolicy } from '../service/auth.js'
import { type ApiError, apiError, FakeInputError, orThrow, toErrorResponse } from '../service/errors.js'
import type { Controls, Fake, StoreControls } from './assemble-fake.js'
import { joinFixture } from './fixture.js'
import { type ForcedRuleSpec, parseForcedRule } from './forced.js'
import { type ConstantFields, constantFields, fail, JSON_TYPE, ok, type PlainRequest, type PlainResponse, type Result } from '../service/http.js'
import type { JournalFilter, JournalPage } from './journal.js'
import { isJsonContentType, parseJsonBody } from '../service/json-body.js'
import { type Latency, parseLatency, toLatencySpec } from './latency.js'
import { parseSeedRequest } from './seed-request.js'
import { isPetStatus, type PetStatus } from '../spec/animals-service.js'
import type { Int64 } from '../spec/animals-service.js'
import { STATUS_FILTER_REFUSED } from '../service/pets.js'
import { parseInt64Text } from '../service/int64.js'
import { findByName, offsetOfId } from './animal-search.js'
import { nextTurn } from './next-turn.js'
import { definedOnly } from '../service/defined-only.js'
import { parseWholeNumber } from '../service/whole-number.js'

/** Where the control API lives: one reserved prefix outside `/v1`. */
export const CONTROL_BASE = '/__control'

/** The header that carries the control token, when one is set. */
export const CONTROL_TOKEN_HEADER = 'x-control-token'

/**
 * The most body bytes each control request may carry, by what it needs: a rule or a setting is a
 * few hundred bytes, and only a snapshot is large (see `snapshotBodyLimit`).
 */
export const CONTROL_BODY_LIMITS = { rule: 16 * 1024, small: 1024 } as const

/**
 * The largest snapshot body: the JSON text of as many animals as the fake may hold, at most
 * 256 MiB (a string of that many characters is about as long as V8 makes; a larger state goes
 * through --fixture or --state-file).
 */
export function snapshotBodyLimit(maxAnimals: number, maxTextChars: number): number {
  return Math.min(256 * 1024 * 1024, maxTextChars * 3 + maxAnimals * 2 + 16)
}

// Control answers carry no CORS: only origins the user opts in get it, from the site.
const CONTROL_JSON: ConstantFields = constantFields({ 'content-type': JSON_TYPE })

/** Options of `createControl`. */
export type ControlOptions = {
  readonly fake: Fake
  /** When set, every control request must send it in `X-Control-Token`. */
  readonly token?: string
  /** The control API's own OpenAPI document (YAML), served at `/__control/openapi.yaml`. */
  readonly document?: string
  /** Writes the pact recorded so far (`serve --record-pact`); `POST /__control/pact` calls it. */
  readonly writePact?: () => Promise<PactWritten>
}

/** What writing the recorded pact did: the file, its interactions, what was left out. */
export type PactWritten = { readonly file: string; readonly interactions: number; readonly warnings: readonly string[] }

/** The control API; requests arrive with paths below `/__control`. */
export type Control = {
  handle(request: PlainRequest): Promise<PlainResponse>
  /** Refuses, before any body is read, a request without the token or key, or to no control at all. */
  admit(request: PlainRequest): PlainResponse | undefined
  /** The most body bytes the control at this method and path takes. */
  bodyLimit(method: string, path: string): number
}

/**
 * Which store a control request acts on. Without isolation: the one store. Under isolation: the
 * store of the key in `Authorization`, or with no key every store (reset, journal, forced rules).
 */
type Scope = {
  readonly fake: Fake
  readonly controls: Controls
  readonly store: StoreControls | undefined
  readonly writePact?: (() => Promise<PactWritten>) | undefined
  readonly document?: string | undefined
}

/** A control: the request, its scope, and what its path's `:id` segment holds. */
type Route = (request: PlainRequest, scope: Scope, id: string) => Promise<PlainResponse> | PlainResponse

/** What a segment written `:id` in a route matches: a rule's id. */
const ID_SEGMENT = /^[0-9]{1,9}$/

const ROUTES: Readonly<Record<string, Route>> = {
  'GET /': (_request, scope) => summary(scope),
  'POST /pact': async (_request, scope) => {
    if (scope.writePact === undefined) {
      return toErrorResponse(apiError('route_not_found', 'No pact is being recorded: start the fake with --record-pact <dir> --consumer <name>.'))
    }
    return json(200, await scope.writePact())
  },
  'POST /reset': async (_request, scope) => {
    scope.controls.reset()
    return summary(scope)
  },
  'POST /seed': async (request, scope) => {
    const store = storeOf(scope)
    const input = readJson(request, 'an object such as {"count": 100, "seed": 7}')
    const { count, ...seedOptions } = orThrow(parseSeedRequest(input))
    const { added, firstId, lastId } = await store.seed(count, seedOptions)
    return json(201, { added, firstId: idOf(firstId), lastId: idOf(lastId), animals: store.store.size })
  },
  'GET /snapshot': (_request, scope) => ({ status: 200, headers: CONTROL_JSON, body: joinFixture(storeOf(scope).store.texts()) }),
  'PUT /snapshot': async (request, scope) => {
    const store = storeOf(scope)
    return json(200, { animals: await store.loadSnapshot(readJsonBytes(request, 'a JSON array of animals')) })
  },
  'GET /animals': async (request, scope) => {
    const { store } = storeOf(scope)
    const query = readPageQuery(request)
    const listed = store.view(query.status)
    const head = query.name === undefined ? pageOf(listed, query) : await namedPageOf(listed, query.name, query)
    return animalsPage(head, query, store.counts())
  },
  'GET /journal': async (request, scope) => journalPageResponse(await scope.controls.journalPage(readJournalFilter(request))),
  'DELETE /journal': (_request, scope) => {
    scope.controls.clearJournal()
    return noContent()
  },
  'GET /stores': (_request, { fake }) =>
    json(200, {
      isolated: fake.isolated,
      stores: fake.stores().map(({ label, store }) => ({ label, animals: store.size, counts: store.counts() })),
    }),
  'GET /forced': (_request, scope) => json(200, { rules: scope.controls.forcedRules() }),
  'POST /forced': (request, scope) => json(201, scope.controls.force(readForcedRule(request))),
  'DELETE /forced': (_request, scope) => {
    scope.controls.unforce()
    return noContent()
  },
  'DELETE /forced/:id': (_request, scope, id) => {
    return scope.controls.unforce(Number(id)) ? noContent() : ruleNotFound(id)
  },
  'GET /openapi.yaml': (request, { document }) => documentResponse(document, request.path),
  'GET /latency': (_request, { controls }) => json(200, controls.latency),
  'PUT /latency': (request, { controls }) => {
    controls.setLatency(toLatencySpec(readLatency(request)))
    return json(200, controls.latency)
  },
}

/**
 * Creates the control API over a fake: reset, seed, snapshot export and import, the journal,
 * forced responses and latency. Bad input is a 400 with the Error body.
 */
export function createControl(options: ControlOptions): Control {
  const { fake, token } = options
  const { maxAnimals, maxTextChars } = fake.budget.limits
  const snapshotLimit = snapshotBodyLimit(maxAnimals, maxTextChars)

  const refuseCredential = credentialCheck(token, fake.keys)

  function scopeOf(request: PlainRequest): Result<Scope, ApiError> {
    const { writePact, document } = options
    if (!fake.isolated) return ok({ fake, controls: fake, store: fake, writePact, document })
    const label = new URLSearchParams(request.search).get('store')
    if (label !== null) {
      const store = fake.forLabel(label)
      if (store === undefined) return fail(unknownLabel(label))
      return ok({ fake, controls: store, store, writePact, document })
    }
    if (request.headers.authorization === undefined) return ok({ fake, controls: fake, store: undefined, writePact, document })
    const auth = authenticate(request.headers.authorization, fake.keys)
    if (!auth.ok) return fail(auth.error)
    const store = fake.forKey(auth.value)
    return ok({ fake, controls: store, store, writePact, document })
  }

  async function route(request: PlainRequest, scope: Scope): Promise<PlainResponse> {
    const found = findRoute(request.method, request.path === '' ? '/' : request.path)
    return 'handler' in found ? found.handler(request, scope, found.id) : found.refusal
  }

  return {
    admit(request) {
      return refuseCredential(request) ?? noRoute(request.method, request.path === '' ? '/' : request.path)
    },
    bodyLimit: (method, path) => controlBodyLimit(method, path, snapshotLimit),
    async handle(request) {
      const refused = refuseCredential(request)
      if (refused !== undefined) return refused
      const scope = scopeOf(request)
      if (!scope.ok) return toErrorResponse(scope.error)
      try {
        return await route(request, scope.value)
      } catch (error) {
        if (error instanceof FakeInputError) return toErrorResponse(error.apiError)
        throw error
      }
    },
  }
}

/**
 * The 401 of a control request without its credential, else `undefined`. With a control token, it
 * is what lets a request in; without one, when the API needs a key, the control API needs one of
 * those keys too.
 */
export function credentialCheck(token: string | undefined, keys: KeyPolicy): (request: PlainRequest) => PlainResponse | undefined {
  return (request) => {
    if (token !== undefined) {
      if (constantTimeEqual(request.headers[CONTROL_TOKEN_HEADER] ?? '', token)) return undefined
      return toErrorResponse(apiError('unauthorized', 'The control API needs the control token in X-Control-Token.'))
    }
    if (keys.kind !== 'listed') return undefined
    const auth = authenticate(request.headers.authorization, keys)
    return auth.ok ? undefined : toErrorResponse(apiError('unauthorized', 'The control API needs an API key the fake accepts: Authorization: Bearer <key>.', auth.error.headers))
  }
}

/** A control's handler and what its path's `:id` segment holds; or the 404 or 405 of a request no control takes. */
export type FoundRoute<R> = { readonly handler: R; readonly id: string } | { readonly refusal: PlainResponse }

/**
 * Finds the control for a method and path in a table keyed "METHOD /path" (a segment `:id` holds a
 * rule's id); else the 404 for a path no control has, or the 405 naming the methods the path has.
 */
export function routeFinder<R>(routes: Readonly<Record<string, R>>): (method: string, path: string) => FoundRoute<R> {
  const paths = Object.keys(routes).map((key) => {
    const [method = '', path = ''] = key.split(' ')
    return { key, method, segments: path.split('/') }
  })
  return (method, path) => {
    const segments = path.split('/')
    const matching = paths.filter((route) => route.segments.length === segments.length && route.segments.every((part, i) => part === segments[i] || (part === ':id' && ID_SEGMENT.test(segments[i] ?? ''))))
    const chosen = matching.find((route) => route.method === method)
    if (chosen !== undefined) return { handler: routes[chosen.key] as R, id: segments[chosen.segments.indexOf(':id')] ?? '' }
    if (matching.length === 0) return { refusal: toErrorResponse(apiError('route_not_found', `No control at ${CONTROL_BASE}${path}.`)) }
    const allow = matching.map((route) => route.method).join(', ')
    return { refusal: toErrorResponse(apiError('method_not_allowed', `${method} is not allowed here; use ${allow}.`, { allow })) }
  }
}

/** Every control of the in-memory fake, by method and path. */
export const findRoute = routeFinder(ROUTES)

/** The 404 or 405 for a method and path with no control; `undefined` when there is one. */
function noRoute(method: string, path: string): PlainResponse | undefined {
  const found = findRoute(method, path)
  return 'refusal' in found ? found.refusal : undefined
}

function storeOf(scope: Scope): StoreControls {
  if (scope.store !== undefined) return scope.store
  throw new FakeInputError(storeNotNamed())
}

/** The 400 of a control that acts on one store, asked under isolation without naming one. */
export function storeNotNamed(): ApiError {
  return apiError('store_not_named', 'Under isolation, name the store: send its key (Authorization: Bearer <key>) or its label (?store=<label>, see GET /__control/stores).')
}

async function summary(scope: Scope): Promise<PlainResponse> {
  const store = scope.store?.store
  return json(200, {
    animals: store?.size ?? null,
    journal: (await scope.controls.journalPage({ limit: 1 })).total,
    forcedRules: scope.controls.forcedRules().length,
  })
}

/** The most body bytes the control at this method and path takes, a snapshot's being `snapshotLimit`. */
export function controlBodyLimit(method: string, path: string, snapshotLimit: number): number {
  if (method === 'PUT' && path === '/snapshot') return snapshotLimit
  if (method === 'POST' && path === '/forced') return CONTROL_BODY_LIMITS.rule
  return CONTROL_BODY_LIMITS.small
}

/** The forced rule a request's body holds; a `FakeInputError` (400) for any other body. */
export function readForcedRule(request: PlainRequest): ForcedRuleSpec {
  return orThrow(parseForcedRule(readJson(request, 'a forced rule such as {"status": 503, "times": 1}')))
}

/** The latency setting a request's body holds; a `FakeInputError` (400) for any other body. */
export function readLatency(request: PlainRequest): Latency {
  return orThrow(parseLatency(readJson(request, 'an object such as {"ms": 250} or {"minMs": 100, "maxMs": 900}')))
}

/** The 404 of `DELETE /forced/:id` for an id no rule of the scope has. */
export function ruleNotFound(id: string): PlainResponse {
  return toErrorResponse(apiError('rule_not_found', `No forced rule has id ${id}; see GET ${CONTROL_BASE}/forced.`))
}

export function readJson(request: PlainRequest, expected: string): unknown {
  return orThrow(parseJsonBody(request, { limit: CONTROL_BODY_LIMITS.rule, expected }))
}

/** The body's bytes, checked as a JSON body is (present, a JSON content type) but not decoded or parsed. */
export function readJsonBytes(request: PlainRequest, expected: string): Uint8Array {
  const { body } = request
  if (body === undefined || body.byteLength === 0) throw new FakeInputError(apiError('missing_body', `A request body is required: ${expected}.`))
  if (!isJsonContentType(request.headers['content-type'] ?? '')) {
    throw new FakeInputError(apiError('unsupported_content_type', 'The body must be sent with Content-Type: application/json (UTF-8).'))
  }
  return body
}

/** A journal page's entries when no `limit` is given, and the most one may ask for (a store's journal holds 1,000). */
export const JOURNAL_PAGE = { default: 100, max: 1000 } as const

const JOURNAL_NUMBERS = { status: [100, 599], since: [0, Number.MAX_SAFE_INTEGER], limit: [1, JOURNAL_PAGE.max] } as const

/** The journal filter of a request's query; a `FakeInputError` (400) for an unknown or bad parameter. */
export function readJournalFilter(request: PlainRequest): JournalFilter {
  return orThrow(parseJournalFilter(new URLSearchParams(request.search)))
}

/** `GET /journal`'s answer: the page's entries as they were serialised, and where it stands. */
export function journalPageResponse({ texts, next, more, total }: JournalPage): PlainResponse {
  return { status: 200, headers: CONTROL_JSON, body: `{"entries":[${texts.join(',')}],"next":${next},"more":${more},"total":${total}}` }
}

function parseJournalFilter(query: URLSearchParams): Result<JournalFilter, ApiError> {
  const filter: Record<string, string | number> = {}
  for (const [name, value] of query) {
    if (name === 'store') continue // chose the scope already
    if (name === 'method' || name === 'path' || name === 'tenant') filter[name] = value
    else if (name === 'status' || name === 'since' || name === 'limit') {
      const number = readWhole(name, value, JOURNAL_NUMBERS[name])
      if (!number.ok) return number
      filter[name] = number.value
    } else {
      return fail(apiError('invalid_parameter', `Unknown query parameter '${name}': use method, path, status, tenant, since or limit.`))
    }
  }
  return ok({ limit: JOURNAL_PAGE.default, ...filter } as JournalFilter)
}

/** The control API's own OpenAPI document, or the 404 of a control API given none. */
export function documentResponse(document: string | undefined, path: string): PlainResponse {
  if (document === undefined) return toErrorResponse(apiError('route_not_found', `No control at ${CONTROL_BASE}${path}.`))
  return { status: 200, headers: { 'content-type': 'application/yaml; charset=utf-8' }, body: document }
}

/** The 400 of `?store=<label>` naming no store in use. */
export function unknownLabel(label: string): ApiError {
  return apiError('invalid_parameter', `No store is labelled '${label}'; see ${CONTROL_BASE}/stores.`)
}

/** The page of animals a request's query asks for; a `FakeInputError` (400) for a bad one. */
export function readPageQuery(request: PlainRequest): PageQuery {
  return orThrow(parsePageQuery(new URLSearchParams(request.search)))
}

/** `GET /animals`'s answer: where the page stands, and its animals as their exact JSON (int64 past 2^53 included), assembled here. */
export function animalsPage(head: PageHead, query: PageQuery, counts: Readonly<Record<string, number>>): PlainResponse {
  const text = JSON.stringify({ ...head.summary, limit: query.limit, counts })
  return { status: 200, headers: CONTROL_JSON, body: `${text.slice(0, -1)},"animals":[${head.texts.join(',')}]}` }
}

/**
 * A page of the store: from `offset`, or from the first animal whose id is `from` or above; of one
 * status; or of the animals whose name holds `name` (ignoring case).
 */
export type PageQuery = { readonly offset: number; readonly limit: number; readonly status?: PetStatus; readonly from?: Int64; readonly name?: string }

/** The longest text a search by name takes. */
const MAX_NAME_QUERY = 100

function parsePageQuery(query: URLSearchParams): Result<PageQuery, ApiError> {
  const offset = readWhole('offset', query.get('offset') ?? '0', [0, Number.MAX_SAFE_INTEGER])
  if (!offset.ok) return offset
  const limit = readWhole('limit', query.get('limit') ?? '20', [1, 1000])
  if (!limit.ok) return limit
  const status = query.get('status')
  if (status !== null && !isPetStatus(status)) return fail(STATUS_FILTER_REFUSED)
  const [fromText, name] = [query.get('from'), query.get('name')]
  if (fromText !== null && name !== null) return fail(apiError('invalid_parameter', "Give 'from' or 'name', not both."))
  const from = fromText === null ? undefined : parseInt64Text(fromText)
  if (from === undefined && fromText !== null) return fail(apiError('invalid_parameter', "Parameter 'from' must be an animal id, a whole number."))
  if (name !== null && (name === '' || name.length > MAX_NAME_QUERY)) {
    return fail(apiError('invalid_parameter', `Parameter 'name' must be 1 to ${MAX_NAME_QUERY} characters.`))
  }
  return ok({ offset: offset.value, limit: limit.value, ...definedOnly({ status: status ?? undefined, from, name: name ?? undefined }) })
}

export type PageHead = { readonly summary: Record<string, number | boolean>; readonly texts: readonly string[] }

function pageOf(listed: readonly string[], query: PageQuery): PageHead {
  const offset = query.from === undefined ? query.offset : offsetOfId(listed, query.from)
  return { summary: { total: listed.length, offset }, texts: listed.slice(offset, offset + query.limit) }
}

/**
 * `total` counts the matches among the animals read, `scanned` of them: all but in a store past
 * MAX_NAME_SCAN. `size` is how many the view holds when `listed` is only its first (a store in
 * Redis reads no more than a search scans).
 */
export async function namedPageOf(listed: readonly string[], name: string, query: PageQuery, size = listed.length): Promise<PageHead> {
  const found = await findByName(listed, name, query.offset, query.limit, nextTurn)
  return { summary: { total: found.matched, offset: query.offset, scanned: found.scanned, complete: found.scanned === size }, texts: found.texts }
}

function readWhole(name: string, text: string, [min, max]: readonly [number, number]): Result<number, ApiError> {
  const number = parseWholeNumber(text, min, max)
  if (number !== undefined) return ok(number)
  return fail(apiError('invalid_parameter', `Query parameter '${name}' must be a whole number from ${min} to ${max}.`))
}

function json(status: number, value: unknown): PlainResponse {
  return { status, headers: CONTROL_JSON, body: JSON.stringify(value) }
}

function noContent(): PlainResponse {
  return { status: 204, headers: {} }
}

/** An id as JSON can carry it exactly: a number while safe, past 2^53 its digits. */
export function idOf(id: Int64 | null): string | number | null {
  return typeof id === 'bigint' ? id.toString() : id
}
