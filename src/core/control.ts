import { authenticate, constantTimeEqual } from './auth.js'
import { type ApiError, apiError, FakeInputError, orThrow, toErrorResponse } from './errors.js'
import type { Controls, Fake, StoreControls } from './fake-service.js'
import { joinFixture, parseFixture } from './fixture.js'
import { parseForcedRule } from './forced.js'
import { CORS_HEADERS, type Fields, fail, JSON_HEADERS, ok, type PlainRequest, type PlainResponse, type Result } from './http.js'
import type { JournalFilter } from './journal.js'
import { parseJsonBody } from './json-body.js'
import { parseLatency, toLatencySpec } from './latency.js'
import type { Int64 } from './int64.js'
import { isPetStatus, type PetStatus } from './pets.js'
import { parseSeedRequest } from './seed-request.js'

/** Where the control API lives: one reserved prefix outside `/v1`. */
export const CONTROL_BASE = '/__control'

/** The header that carries the control token, when one is set. */
export const CONTROL_TOKEN_HEADER = 'x-control-token'

/** Snapshots can be large: a control request may carry this many bytes. */
export const CONTROL_BODY_LIMIT = 256 * 1024 * 1024

/** Options of `createControl`. */
export type ControlOptions = {
  readonly fake: Fake
  /** When set, every control request must send it in `X-Control-Token`. */
  readonly token?: string
  /** The control API's own OpenAPI document (YAML), served at `/__control/openapi.yaml`. */
  readonly document?: string
}

/** The control API as one async function; requests arrive with paths below `/__control`. */
export type Control = { handle(request: PlainRequest): Promise<PlainResponse> }

/**
 * Which store a control request acts on. Without isolation: the one store. Under isolation: the
 * store of the key in `Authorization`, or with no key every store (reset, journal, forced rules).
 */
type Scope = { readonly fake: Fake; readonly controls: Controls; readonly store: StoreControls | undefined }

type Route = (request: PlainRequest, scope: Scope) => Promise<PlainResponse> | PlainResponse

const ROUTES: Readonly<Record<string, Route>> = {
  'GET /': (_request, scope) => summary(scope),
  'POST /reset': (_request, scope) => {
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
  'GET /snapshot': (_request, scope) => ({ status: 200, headers: JSON_HEADERS, body: joinFixture(storeOf(scope).store.texts()) }),
  'PUT /snapshot': (request, scope) => {
    const store = storeOf(scope)
    orThrow(parseJsonBody(request, { limit: CONTROL_BODY_LIMIT, expected: 'a JSON array of animals' }))
    const pets = parseFixture(new TextDecoder().decode(request.body))
    if (!pets.ok) throw new FakeInputError(apiError('invalid_body', `The snapshot is not valid: ${pets.error}.`))
    store.load(pets.value)
    return json(200, { animals: store.store.size })
  },
  'GET /animals': (request, scope) => {
    const { store } = storeOf(scope)
    const query = orThrow(parsePageQuery(new URLSearchParams(request.search)))
    const page = store.page(query.offset, query.limit, query.status)
    const counts = store.counts()
    const total = query.status === undefined ? store.size : counts[query.status]
    const head = JSON.stringify({ total, offset: query.offset, limit: query.limit, counts })
    // Animals keep their exact JSON (int64 past 2^53 included), so the body is assembled here.
    return { status: 200, headers: JSON_HEADERS, body: `${head.slice(0, -1)},"animals":[${page.join(',')}]}` }
  },
  'GET /journal': (request, scope) => json(200, { entries: scope.controls.journal(orThrow(parseJournalFilter(new URLSearchParams(request.search)))) }),
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
  'POST /forced': (request, scope) => {
    const input = readJson(request, 'a forced rule such as {"status": 503, "times": 1}')
    return json(201, scope.controls.force(orThrow(parseForcedRule(input))))
  },
  'DELETE /forced': (_request, scope) => {
    scope.controls.unforce()
    return noContent()
  },
  'GET /latency': (_request, { fake }) => json(200, fake.latency),
  'PUT /latency': (request, { fake }) => {
    const input = readJson(request, 'an object such as {"ms": 250} or {"minMs": 100, "maxMs": 900}')
    fake.setLatency(toLatencySpec(orThrow(parseLatency(input))))
    return json(200, fake.latency)
  },
}

/**
 * Creates the control API over a fake: reset, seed, snapshot export and import, the journal,
 * forced responses and latency. Bad input is a 400 with the Error body.
 */
export function createControl(options: ControlOptions): Control {
  const { fake, token } = options

  function scopeOf(request: PlainRequest): Result<Scope, ApiError> {
    if (!fake.isolated) return ok({ fake, controls: fake, store: fake })
    const label = new URLSearchParams(request.search).get('store')
    if (label !== null) {
      const store = fake.forLabel(label)
      if (store === undefined) return fail(apiError('invalid_parameter', `No store is labelled '${label}'; see ${CONTROL_BASE}/stores.`))
      return ok({ fake, controls: store, store })
    }
    if (request.headers.authorization === undefined) return ok({ fake, controls: fake, store: undefined })
    const auth = authenticate(request.headers.authorization, fake.keys)
    if (!auth.ok) return fail(auth.error)
    const store = fake.forKey(auth.value)
    return ok({ fake, controls: store, store })
  }

  async function route(request: PlainRequest, scope: Scope): Promise<PlainResponse> {
    const path = request.path === '' ? '/' : request.path
    if (path === '/openapi.yaml' && request.method === 'GET' && options.document !== undefined) {
      return { status: 200, headers: { ...CORS_HEADERS, 'content-type': 'application/yaml; charset=utf-8' }, body: options.document }
    }
    const handler = ROUTES[`${request.method} ${path}`]
    if (handler !== undefined) return handler(request, scope)
    const ruleId = /^\/forced\/([0-9]{1,9})$/.exec(path)?.[1]
    if (ruleId !== undefined && request.method === 'DELETE') {
      if (scope.controls.unforce(Number(ruleId))) return noContent()
      return toErrorResponse(apiError('route_not_found', `No forced rule has id ${ruleId}.`))
    }
    const allowed = Object.keys(ROUTES)
      .filter((key) => key.endsWith(` ${path}`))
      .map((key) => key.split(' ')[0] ?? '')
    if (ruleId !== undefined) allowed.push('DELETE')
    if (allowed.length === 0) return toErrorResponse(apiError('route_not_found', `No control at ${CONTROL_BASE}${path}.`))
    const allow = allowed.join(', ')
    return toErrorResponse(apiError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { allow }))
  }

  return {
    async handle(request) {
      if (request.method === 'OPTIONS') return preflight(request.headers)
      if (token !== undefined && !constantTimeEqual(request.headers[CONTROL_TOKEN_HEADER] ?? '', token)) {
        return toErrorResponse(apiError('unauthorized', 'The control API needs the control token in X-Control-Token.'))
      }
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

function storeOf(scope: Scope): StoreControls {
  if (scope.store !== undefined) return scope.store
  throw new FakeInputError(
    apiError('invalid_body', 'Under isolation, name the store with its key: Authorization: Bearer <key>.'),
  )
}

function summary(scope: Scope): PlainResponse {
  const store = scope.store?.store
  return json(200, {
    animals: store?.size ?? null,
    journal: scope.controls.journal().length,
    forcedRules: scope.controls.forcedRules().length,
  })
}

function readJson(request: PlainRequest, expected: string): unknown {
  return orThrow(parseJsonBody(request, { limit: CONTROL_BODY_LIMIT, expected }))
}

const JOURNAL_NUMBERS = { status: [100, 599], since: [0, Number.MAX_SAFE_INTEGER], limit: [1, 100_000] } as const

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
  return ok(filter as JournalFilter)
}

type PageQuery = { readonly offset: number; readonly limit: number; readonly status?: PetStatus }

function parsePageQuery(query: URLSearchParams): Result<PageQuery, ApiError> {
  const offset = readWhole('offset', query.get('offset') ?? '0', [0, Number.MAX_SAFE_INTEGER])
  if (!offset.ok) return offset
  const limit = readWhole('limit', query.get('limit') ?? '20', [1, 1000])
  if (!limit.ok) return limit
  const status = query.get('status')
  if (status === null) return ok({ offset: offset.value, limit: limit.value })
  if (!isPetStatus(status)) return fail(apiError('invalid_parameter', "Query parameter 'status' must be one of available, pending, sold."))
  return ok({ offset: offset.value, limit: limit.value, status })
}

function readWhole(name: string, text: string, [min, max]: readonly [number, number]): Result<number, ApiError> {
  const number = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN
  if (number >= min && number <= max) return ok(number)
  return fail(apiError('invalid_parameter', `Query parameter '${name}' must be a whole number from ${min} to ${max}.`))
}

function preflight(headers: Fields): PlainResponse {
  return {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
      'access-control-allow-headers': headers['access-control-request-headers'] ?? ALLOW_HEADERS,
      'access-control-max-age': '600',
    },
  }
}

const ALLOW_HEADERS = `Authorization, Content-Type, ${CONTROL_TOKEN_HEADER}`

function json(status: number, value: unknown): PlainResponse {
  return { status, headers: JSON_HEADERS, body: JSON.stringify(value) }
}

function noContent(): PlainResponse {
  return { status: 204, headers: CORS_HEADERS }
}

function idOf(id: Int64 | null): string | number | null {
  return typeof id === 'bigint' ? id.toString() : id
}
