import { authenticate, constantTimeEqual, type KeyPolicy } from '../service/auth.js'
import { type ApiError, apiError, FakeInputError, orThrow, toErrorResponse } from '../service/errors.js'
import { type ConstantFields, constantFields, fail, JSON_TYPE, ok, type PlainRequest, type PlainResponse, type Result } from '../service/http.js'
import type { Int64 } from '../spec/animals-service.js'
import { StoreUnavailable, type Maybe, andThen } from '../store/port.js'
import { SHARED_STORE } from '../store/scope.js'
import { CONTROL_BODY_LIMITS, readJournalFilter, readJson, readJsonBytes, readPageQuery } from './control-input.js'
import { createControlReads } from './control-reads.js'
import type { Target } from './controls.js'
import type { FakeCore } from './fake-core.js'
import type { JournalPage } from './journal-reader.js'
import { nextTurn } from './next-turn.js'
import { storeUnavailable } from './refusals.js'
import { parseSeedRequest } from './seed-request.js'

/** Where the control API lives: one reserved prefix outside `/v1`. */
export const CONTROL_BASE = '/__control'

/** The header that carries the control token, when one is set. */
export const CONTROL_TOKEN_HEADER = 'x-control-token'

export { CONTROL_BODY_LIMITS }

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
  /** The fake, in memory or over Redis: `coreOf(createFake())`, or `createFakeCore` over a store. */
  readonly core: FakeCore
  /** When set, every control request must send it in `X-Control-Token`. */
  readonly token?: string
  /** The control API's own OpenAPI document (YAML), served at `/__control/openapi.yaml`. */
  readonly document?: string
  /** Writes the pact recorded so far (`serve --record-pact`); `POST /__control/pact` calls it. */
  readonly writePact?: () => Promise<PactWritten>
  /** Lets other work run between the chunks of a long read: `nextTurn` unless given. */
  readonly pause?: () => Promise<void>
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
 * What a control request acts on: every store (`target` undefined, under isolation without a key or
 * label), or one store (its label, also the target). Without isolation the one store is both.
 * `operator`: whether it comes from the operator, who may reach any store (see `isOperator`).
 */
type Scope = { readonly target: Target; readonly store: string | undefined; readonly operator: boolean }

/** A control: the request, its scope, what its path's `:id` segment holds, and what the control API acts with. */
type Route = (request: PlainRequest, scope: Scope, id: string, options: ControlContext) => Maybe<PlainResponse>

/** What the control API reads of its store. */
type ControlReads = ReturnType<typeof createControlReads>

/** The control API's options, with what it reads of the store. */
type ControlContext = ControlOptions & { readonly reads: ControlReads }

/** What a segment written `:id` in a route matches: a rule's id. */
const ID_SEGMENT = /^[0-9]{1,9}$/

const ROUTES: Readonly<Record<string, Route>> = {
  'GET /': (_request, { target }, _id, { reads }) => summary(reads, target),
  'POST /pact': async (_request, _scope, _id, { writePact }) => {
    if (writePact === undefined) {
      return toErrorResponse(apiError('route_not_found', 'No pact is being recorded: start the fake in memory with --record-pact <dir> --consumer <name> (not with --store, where each replica would record a part).'))
    }
    return json(200, await writePact())
  },
  'POST /reset': (_request, { target }, _id, { core, reads }) => andThen(core.controls.reset(target), () => summary(reads, target)),
  'POST /seed': async (request, scope, _id, { core, reads }) => {
    const label = storeOf(scope)
    const { count, ...seedOptions } = orThrow(parseSeedRequest(readJson(request, 'an object such as {"count": 100, "seed": 7}')))
    const { added, firstId, lastId } = await core.controls.seed(label, count, seedOptions)
    return json(201, { added, firstId: idOf(firstId), lastId: idOf(lastId), animals: await reads.size(label) })
  },
  'GET /snapshot': (_request, scope, _id, { reads }) => andThen(reads.snapshot(storeOf(scope)), (body) => ({ status: 200, headers: CONTROL_JSON, body })),
  'PUT /snapshot': async (request, scope, _id, { core }) => json(200, { animals: await core.controls.loadSnapshot(storeOf(scope), readJsonBytes(request, 'a JSON array of animals')) }),
  'GET /animals': async (request, scope, _id, { reads }) => {
    const query = readPageQuery(request)
    const { summary: head, texts, counts } = await reads.animalsPage(storeOf(scope), query)
    // The animals as their exact JSON (int64 past 2^53 included), assembled here.
    const text = JSON.stringify({ ...head, limit: query.limit, counts })
    return { status: 200, headers: CONTROL_JSON, body: `${text.slice(0, -1)},"animals":[${texts.join(',')}]}` }
  },
  'GET /journal': async (request, { target }, _id, { core }) => journalPageResponse(await core.controls.journalPage(target, readJournalFilter(request))),
  'DELETE /journal': (_request, { target }, _id, { core }) => andThen(core.controls.clearJournal(target), noContent),
  'GET /stores': async (_request, { operator }, _id, { core, reads, token }) => {
    if (!operator) return toErrorResponse(operatorOnly('Listing the stores', token))
    return json(200, { isolated: core.isolated, stores: await reads.stores() })
  },
  'GET /forced': (_request, { target }, _id, { core }) => andThen(core.controls.rules(target), (rules) => json(200, { rules })),
  'POST /forced': (request, { target }, _id, { core }) => andThen(core.controls.force(target, readJson(request, 'a forced rule such as {"status": 503, "times": 1}')), (rule) => json(201, rule)),
  'DELETE /forced': (_request, { target }, _id, { core }) => andThen(core.controls.unforce(target), noContent),
  'DELETE /forced/:id': (_request, { target }, id, { core }) => andThen(core.controls.unforce(target, Number(id)), (removed) => (removed ? noContent() : ruleNotFound(id))),
  'GET /openapi.yaml': (request, _scope, _id, { document }) => documentResponse(document, request.path),
  'GET /latency': (_request, { target }, _id, { core }) => andThen(core.controls.latency(target), (latency) => json(200, latency)),
  'PUT /latency': (request, { target }, _id, { core }) =>
    andThen(core.controls.setLatency(target, readJson(request, 'an object such as {"ms": 250} or {"minMs": 100, "maxMs": 900}')), () => andThen(core.controls.latency(target), (latency) => json(200, latency))),
}

/**
 * Creates the control API over a fake, in memory or over Redis: reset, seed, snapshot export and
 * import, the journal, forced responses, latency and the store pages. Bad input is a 400 with the
 * Error body; a store that cannot serve now, a 503.
 */
export function createControl(options: ControlOptions): Control {
  const { core, token } = options
  const snapshotLimit = snapshotBodyLimit(core.limits.maxAnimals, core.limits.maxTextChars)
  const refuseCredential = credentialCheck(token, core.keys, core.isolated)
  const context: ControlContext = { ...options, reads: createControlReads(core.store, options.pause ?? nextTurn) }

  async function handle(request: PlainRequest): Promise<PlainResponse> {
    const path = request.path === '' ? '/' : request.path
    const found = findRoute(request.method, path)
    if (!('handler' in found)) return found.refusal
    const scope = await scopeOf(core, request, token)
    if (!scope.ok) return toErrorResponse(scope.error)
    return found.handler(request, scope.value, found.id, context)
  }

  return {
    admit(request) {
      return refuseCredential(request) ?? noRoute(request.method, request.path === '' ? '/' : request.path)
    },
    bodyLimit: (method, path) => controlBodyLimit(method, path, snapshotLimit),
    async handle(request) {
      const refused = refuseCredential(request)
      if (refused !== undefined) return refused
      try {
        return await handle(request)
      } catch (error) {
        if (error instanceof FakeInputError) return toErrorResponse(error.apiError)
        if (error instanceof StoreUnavailable) return toErrorResponse(storeUnavailable(error))
        throw error
      }
    },
  }
}

/**
 * Which store a control request acts on. Without isolation: the one store. Under isolation: the
 * store labelled in `?store=` (the operator's alone), else the store of the key in
 * `Authorization`, else every store (a request without a key is the operator's: see `isOperator`).
 */
async function scopeOf(core: FakeCore, request: PlainRequest, token: string | undefined): Promise<Result<Scope, ApiError>> {
  const operator = isOperator(request, token, core.keys)
  if (!core.isolated) return ok({ target: SHARED_STORE, store: SHARED_STORE, operator: true })
  const label = new URLSearchParams(request.search).get('store')
  if (label !== null) {
    if (!operator) return fail(operatorOnly('Naming a store (?store=)', token))
    return (await core.store.tenants.labels()).includes(label) ? ok({ target: label, store: label, operator }) : fail(unknownLabel(label))
  }
  if (request.headers.authorization === undefined) return ok({ target: undefined, store: undefined, operator })
  const auth = authenticate(request.headers.authorization, core.keys)
  if (!auth.ok) return auth
  const claimed = await core.tenancy.storeFor(auth.value)
  return claimed.ok ? ok({ target: claimed.value, store: claimed.value, operator }) : claimed
}

/**
 * Whether a control request is the operator's, who may name any store, list them and act on every
 * store at once: with a control token, the request that carries it; without one, a request that
 * carries no key to a fake that takes any key (no key is anyone's secret there). A request with a
 * team's key and no token reaches its own store alone.
 */
function isOperator(request: PlainRequest, token: string | undefined, keys: KeyPolicy): boolean {
  if (token !== undefined) return constantTimeEqual(request.headers[CONTROL_TOKEN_HEADER] ?? '', token)
  return keys.kind === 'any' && request.headers.authorization === undefined
}

/**
 * The 401 of a control request without its credential, else `undefined`. With a control token, it
 * is what lets a request in, and under isolation a key the API accepts lets its own store's
 * controls in too; without a token, when the API needs a key, the control API needs one of those
 * keys too.
 */
export function credentialCheck(token: string | undefined, keys: KeyPolicy, isolated: boolean): (request: PlainRequest) => PlainResponse | undefined {
  return (request) => {
    if (token !== undefined) {
      if (constantTimeEqual(request.headers[CONTROL_TOKEN_HEADER] ?? '', token)) return undefined
      if (isolated && request.headers.authorization !== undefined && authenticate(request.headers.authorization, keys).ok) return undefined
      const or = isolated ? ', or an API key for its own store (Authorization: Bearer <key>)' : ''
      return toErrorResponse(apiError('unauthorized', `The control API needs the control token in X-Control-Token${or}.`))
    }
    if (keys.kind !== 'listed') return undefined
    const auth = authenticate(request.headers.authorization, keys)
    return auth.ok ? undefined : toErrorResponse(apiError('unauthorized', 'The control API needs an API key the fake accepts: Authorization: Bearer <key>.', auth.error.headers))
  }
}

/** The 403 of what only the operator may do, asked with a team's key. */
function operatorOnly(what: string, token: string | undefined): ApiError {
  const how = token === undefined ? 'start the fake with --control-token <t> (or ANIMALS_MOCK_CONTROL_TOKEN) and send X-Control-Token: <t>' : 'send the control token in X-Control-Token'
  return apiError('operator_only', `${what} is for the operator: ${how}. A key reaches its own store alone.`)
}

/** A control's handler and what its path's `:id` segment holds; or the 404 or 405 of a request no control takes. */
type FoundRoute = { readonly handler: Route; readonly id: string } | { readonly refusal: PlainResponse }

const ROUTE_PATHS = Object.keys(ROUTES).map((key) => {
  const [method = '', path = ''] = key.split(' ')
  return { key, method, segments: path.split('/') }
})

/**
 * The control for a method and path (a segment `:id` holds a rule's id); else the 404 for a path
 * no control has, or the 405 naming the methods the path has.
 */
function findRoute(method: string, path: string): FoundRoute {
  const segments = path.split('/')
  const matching = ROUTE_PATHS.filter((route) => route.segments.length === segments.length && route.segments.every((part, i) => part === segments[i] || (part === ':id' && ID_SEGMENT.test(segments[i] ?? ''))))
  const chosen = matching.find((route) => route.method === method)
  if (chosen !== undefined) return { handler: ROUTES[chosen.key] as Route, id: segments[chosen.segments.indexOf(':id')] ?? '' }
  if (matching.length === 0) return { refusal: toErrorResponse(apiError('route_not_found', `No control at ${CONTROL_BASE}${path}.`)) }
  const allow = matching.map((route) => route.method).join(', ')
  return { refusal: toErrorResponse(apiError('method_not_allowed', `${method} is not allowed here; use ${allow}.`, { allow })) }
}

/** The 404 or 405 for a method and path with no control; `undefined` when there is one. */
function noRoute(method: string, path: string): PlainResponse | undefined {
  const found = findRoute(method, path)
  return 'refusal' in found ? found.refusal : undefined
}

function storeOf(scope: Scope): string {
  if (scope.store !== undefined) return scope.store
  throw new FakeInputError(apiError('store_not_named', 'Under isolation, name the store: send its key (Authorization: Bearer <key>) or its label (?store=<label>, see GET /__control/stores).'))
}

async function summary(reads: ControlReads, target: Target): Promise<PlainResponse> {
  return json(200, await reads.summary(target))
}

/** The most body bytes the control at this method and path takes, a snapshot's being `snapshotLimit`. */
function controlBodyLimit(method: string, path: string, snapshotLimit: number): number {
  if (method === 'PUT' && path === '/snapshot') return snapshotLimit
  if (method === 'POST' && path === '/forced') return CONTROL_BODY_LIMITS.rule
  return CONTROL_BODY_LIMITS.small
}

/** The 404 of `DELETE /forced/:id` for an id no rule of the scope has. */
function ruleNotFound(id: string): PlainResponse {
  return toErrorResponse(apiError('rule_not_found', `No forced rule has id ${id}; see GET ${CONTROL_BASE}/forced.`))
}

/** `GET /journal`'s answer: the page's entries as they were serialised, and where it stands. */
function journalPageResponse({ texts, next, more, total }: JournalPage): PlainResponse {
  return { status: 200, headers: CONTROL_JSON, body: `{"entries":[${texts.join(',')}],"next":${next},"more":${more},"total":${total}}` }
}

/** The control API's own OpenAPI document, or the 404 of a control API given none. */
function documentResponse(document: string | undefined, path: string): PlainResponse {
  if (document === undefined) return toErrorResponse(apiError('route_not_found', `No control at ${CONTROL_BASE}${path}.`))
  return { status: 200, headers: { 'content-type': 'application/yaml; charset=utf-8' }, body: document }
}

/** The 400 of `?store=<label>` naming no store in use. */
function unknownLabel(label: string): ApiError {
  return apiError('invalid_parameter', `No store is labelled '${label}'; see ${CONTROL_BASE}/stores.`)
}

function json(status: number, value: unknown): PlainResponse {
  return { status, headers: CONTROL_JSON, body: JSON.stringify(value) }
}

function noContent(): PlainResponse {
  return { status: 204, headers: {} }
}

/** An id as JSON can carry it exactly: a number while safe, past 2^53 its digits. */
function idOf(id: Int64 | null): string | number | null {
  return typeof id === 'bigint' ? id.toString() : id
}
