import { authenticate, type KeyPolicy } from '../service/auth.js'
import { type ApiError, apiError, toErrorResponse } from '../service/errors.js'
import { type ForcedEffect, forcedErrorResponse } from './forced.js'
import {
  constantFields,
  CORS_HEADERS,
  type Fields,
  JSON_HEADERS,
  JSON_TYPE,
  isDropped,
  type PlainRequest,
  type PlainResponse,
  type Reply,
  type Result,
  withoutBody,
} from '../service/http.js'
import { parseJsonBody } from '../service/json-body.js'
import { type ListQuery, parseListQuery, parseNewPet, parsePetId } from '../service/pets.js'
import { preferredAnswer, unsatisfiable } from './prefer.js'
import { DEPRECATED_GET_PET, OPERATIONS, operationOf, petIdOf, petPath, REMOVAL_HTTP_DATE } from '../spec/animals-service.js'
import type { Store } from '../service/store.js'
import type { Scope, Tenant } from './tenants.js'

/** Options of `createApp`. */
export type AppOptions = {
  readonly keys: KeyPolicy
  /** The store an accepted bearer token works on: one shared store, or its own under isolation. */
  readonly tenantFor: (token: string) => Result<Tenant, ApiError>
  /**
   * The scope of every store, whose forced rules apply to every request after its own store's
   * (under isolation; without it, this is the one store). Rules answer after the key check, before the route.
   */
  readonly everyStore: Scope
  /** Whether `Prefer: code=NNN` chooses a request's answer (Prism's header); the fake's option defaults it. */
  readonly prefer: boolean
}

/**
 * Who chose a request's answer: the API itself (`answered`), the request's own `Prefer`, a forced
 * rule's response (`forced`), a rule that only held the API's answer back (`delayed`), or a rule
 * that dropped the connection (`dropped`).
 */
export type Outcome = 'answered' | 'prefer' | 'forced' | 'delayed' | 'dropped'

/** What became of one request: the reply, and for the journal who asked and who chose the answer. */
export type HandledRequest = {
  readonly reply: Reply
  readonly tenant: Tenant | undefined
  readonly outcome: Outcome
  /** Anything but the API's own answer: a pact recorder leaves it out. */
  readonly forced: boolean
}

function answeredByApi(reply: Reply, tenant: Tenant | undefined): HandledRequest {
  return { reply, tenant, outcome: 'answered', forced: false }
}

function chosen(reply: Reply, tenant: Tenant, outcome: Exclude<Outcome, 'answered'>): HandledRequest {
  return { reply, tenant, outcome, forced: true }
}

/** The animals API as one function from plain request to reply. */
export type App = { handle(request: PlainRequest): HandledRequest }

/**
 * When the fake says `getPet` was deprecated, in RFC 9745's form. The spec gives the removal date
 * (`Sunset`), not the day the deprecation took effect: the fake says 1 January 2026, and the
 * contracts match any structured date.
 */
const DEPRECATED_SINCE = '@1767225600'

type Route = { readonly kind: 'pets' } | { readonly kind: 'pet'; readonly segment: string }

const ALLOW = { pets: 'GET, HEAD, POST, OPTIONS', pet: 'GET, HEAD, OPTIONS' } as const

function matchRoute(path: string): Route | undefined {
  if (path === OPERATIONS.listPets.path) return { kind: 'pets' }
  const segment = petIdOf(path)
  return segment === undefined ? undefined : { kind: 'pet', segment }
}

/**
 * Creates the API. Order of checks: CORS preflight (browsers send it without credentials), then
 * the bearer key, then forced responses, then the route, the method, and the operation's input.
 * @example createApp({ keys, tenantFor, everyStore, prefer: true }).handle(request).reply
 */
export function createApp(options: AppOptions): App {
  const { keys, tenantFor, everyStore, prefer } = options
  // A store's own rules first, then those set for every store.
  const forcedOn = (request: PlainRequest, tenant: Tenant): ForcedEffect | undefined =>
    tenant.forced.take(request) ?? (tenant === everyStore ? undefined : everyStore.forced.take(request))
  // A found animal's headers, by base path (a transport has one or two), built once and frozen.
  const foundHeaders = new Map<string, Fields>()
  const foundHeadersFor = (basePath: string): Fields => {
    let headers = foundHeaders.get(basePath)
    // Stryker disable next-line ConditionalExpression: a cache; headers built again are the same headers
    if (headers === undefined) {
      headers = constantFields({ ...JSON_HEADERS, ...deprecationHeaders(basePath) })
      foundHeaders.set(basePath, headers)
    }
    return headers
  }
  const listQuery = createListQueryCache()

  function dispatch(route: Route | undefined, request: PlainRequest): HandledRequest {
    const auth = authenticate(request.headers.authorization, keys)
    if (!auth.ok) return answeredByApi(toErrorResponse(auth.error), undefined)
    const tenant = tenantFor(auth.value)
    if (!tenant.ok) return answeredByApi(toErrorResponse(tenant.error), undefined)
    // The request's own Prefer comes before the rules a test set for every request. Whatever it
    // gets is marked forced: the journal says so, and a pact recorder leaves it out.
    const operation = prefer ? operationOf(request.method, request.path) : undefined
    const preferred = operation === undefined ? undefined : preferredAnswer(request.headers.prefer, operation)
    if (preferred !== undefined) {
      if (!preferred.ok) return chosen(toErrorResponse(preferred.error), tenant.value, 'prefer')
      const { kind, status } = preferred.value
      if (kind === 'error') {
        const reply = forcedErrorResponse(status, `A ${status} answer asked for with Prefer: code=${status}.`)
        return chosen(reply, tenant.value, 'prefer')
      }
      const response = operate(route, request, tenant.value.store, listQuery, foundHeadersFor)
      const reply = response.status === status ? response : toErrorResponse(unsatisfiable(status, response.status, errorMessageOf(response)))
      return chosen(reply, tenant.value, 'prefer')
    }
    const effect = forcedOn(request, tenant.value)
    if (effect?.kind === 'respond') return chosen(effect.response, tenant.value, 'forced')
    if (effect?.kind === 'drop') return chosen(effect.reply, tenant.value, 'dropped')
    const response = operate(route, request, tenant.value.store, listQuery, foundHeadersFor)
    if (effect === undefined) return answeredByApi(response, tenant.value)
    return chosen({ ...response, delayMs: effect.delayMs }, tenant.value, 'delayed')
  }

  return {
    handle(request) {
      const route = matchRoute(request.path)
      if (request.method === 'OPTIONS') {
        return answeredByApi(preflight(route, request.headers), undefined)
      }
      const exchange = dispatch(route, request)
      const { reply } = exchange
      if (isDropped(reply)) return exchange
      // Every answer of the deprecated operation says so, its errors included.
      const isGetPet = route?.kind === 'pet' && (request.method === 'GET' || request.method === 'HEAD')
      const signalled = isGetPet && !('deprecation' in reply.headers) ? withDeprecation(reply, request.basePath) : reply
      const answer = request.method === 'HEAD' ? withoutBody(signalled) : signalled
      return answer === reply ? exchange : { ...exchange, reply: answer }
    },
  }
}

// Only asked of an answer that is not the operation's one success status: one of our Error bodies.
function errorMessageOf(response: PlainResponse): string {
  return (JSON.parse(response.body as string) as ApiError).message
}

function operate(
  route: Route | undefined,
  request: PlainRequest,
  store: Store,
  listQuery: (search: string) => Result<ListQuery, ApiError>,
  foundHeadersFor: (basePath: string) => Fields,
): PlainResponse {
  if (route === undefined) {
    return toErrorResponse(apiError('route_not_found', `No operation at ${request.basePath}${request.path}.`))
  }
  const method = request.method === 'HEAD' ? 'GET' : request.method
  if (route.kind === 'pets') {
    if (method === 'GET') return listPets(listQuery(request.search), store)
    if (method === 'POST') return createPet(request, store)
  } else if (method === 'GET') return getPet(route.segment, store, foundHeadersFor(request.basePath))
  const allow = ALLOW[route.kind]
  return toErrorResponse(apiError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { allow }))
}

// A page asks for the same few lists over and over: each query string is parsed once. The cache
// is emptied past this many, so odd queries cannot make it grow without end.
const LIST_QUERIES_KEPT = 256

function createListQueryCache(): (search: string) => Result<ListQuery, ApiError> {
  const parsed = new Map<string, Result<ListQuery, ApiError>>()
  return (search) => {
    let query = parsed.get(search)
    // Stryker disable next-line ConditionalExpression: a cache; a query parsed again gives the same answer
    if (query === undefined) {
      if (parsed.size >= LIST_QUERIES_KEPT) parsed.clear()
      query = parseListQuery(new URLSearchParams(search))
      parsed.set(search, query)
    }
    return query
  }
}

function listPets(query: Result<ListQuery, ApiError>, store: Store): PlainResponse {
  if (!query.ok) return toErrorResponse(query.error)
  return { status: 200, headers: JSON_HEADERS, body: store.listJson(query.value.limit, query.value.status) }
}

function getPet(segment: string, store: Store, foundHeaders: Fields): PlainResponse {
  const id = parsePetId(decodeSegment(segment))
  if (!id.ok) return toErrorResponse(id.error)
  const json = store.get(id.value)
  if (json === undefined) return toErrorResponse(apiError('pet_not_found', `No animal has id ${id.value}.`))
  return { status: 200, headers: foundHeaders, body: json }
}

function createPet(request: PlainRequest, store: Store): PlainResponse {
  const body = parseJsonBody(request)
  if (!body.ok) return toErrorResponse(body.error)
  const newPet = parseNewPet(body.value)
  if (!newPet.ok) return toErrorResponse(newPet.error)
  const created = store.create(newPet.value)
  if (!created.ok) return toErrorResponse(created.error)
  const location = `${request.basePath}${petPath(created.value.pet.id)}`
  return { status: 201, headers: createdHeaders(location), body: created.value.json }
}

/** JSON_HEADERS and a Location, spelled out: a spread of a frozen object costs every creation. */
function createdHeaders(location: string): Fields {
  return {
    'content-type': JSON_TYPE,
    'access-control-allow-origin': CORS_HEADERS['access-control-allow-origin'],
    'access-control-expose-headers': CORS_HEADERS['access-control-expose-headers'],
    location,
  }
}

function preflight(route: Route | undefined, headers: Fields): PlainResponse {
  // Unknown paths get a preflight too, so the browser goes on to read the real 404 body.
  const allow = route === undefined ? ALLOW.pets : ALLOW[route.kind]
  return {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      allow,
      'access-control-allow-methods': allow,
      // Pages often add their own headers (tracing, request ids); a fake should not block them.
      'access-control-allow-headers': headers['access-control-request-headers'] ?? 'Authorization, Content-Type',
      'access-control-max-age': '600',
    },
  }
}


/** The deprecation signals added to an answer that lacks them: the operation's errors. */
function withDeprecation(response: PlainResponse, basePath: string): PlainResponse {
  return { ...response, headers: { ...response.headers, ...deprecationHeaders(basePath) } }
}

function deprecationHeaders(basePath: string): Fields {
  return {
    deprecation: DEPRECATED_SINCE,
    sunset: REMOVAL_HTTP_DATE,
    link: `<${basePath}${DEPRECATED_GET_PET.successor.path}>; rel="successor-version"`,
  }
}

function decodeSegment(segment: string): string {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a fast path: decodeURIComponent leaves a segment without % as it is
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {}
  return segment // not valid percent-encoding: parsePetId refuses it as it stands
}

