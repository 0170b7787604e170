import { type ApiError, apiError, toErrorResponse } from '../service/errors.js'
import { forcedErrorResponse } from './forced.js'
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
  withoutBody,
} from '../service/http.js'
import { parseJsonBody } from '../service/json-body.js'
import { parseListQuery, parseNewPet, parsePetId } from '../service/pets.js'
import { preferredAnswer, unsatisfiable } from './prefer.js'
import { DEPRECATED_GET_PET, type Int64, OPERATIONS, operationOf, petIdOf, petPath, REMOVAL_HTTP_DATE } from '../spec/animals-service.js'
import type { Operation } from '../store/port.js'

/**
 * When the fake says `getPet` was deprecated, in RFC 9745's form. The spec gives the removal date
 * (`Sunset`), not the day the deprecation took effect: the fake says 1 January 2026, and the
 * contracts match any structured date.
 */
const DEPRECATED_SINCE = '@1767225600'

/** Where a request to the API goes: the list of animals, or one animal by its path segment. */
export type Route = { readonly kind: 'pets' } | { readonly kind: 'pet'; readonly segment: string }

const ALLOW = { pets: 'GET, HEAD, POST, OPTIONS', pet: 'GET, HEAD, OPTIONS' } as const

const PETS: Route = { kind: 'pets' }

/** The route of a path below the base; `undefined` for a path the API does not have. */
export function matchRoute(path: string): Route | undefined {
  if (path === OPERATIONS.listPets.path) return PETS
  const segment = petIdOf(path)
  return segment === undefined ? undefined : { kind: 'pet', segment }
}

/** A found animal's headers by base path (a transport has one or two), each built once and frozen. */
export function createFoundHeaders(): (basePath: string) => Fields {
  const foundHeaders = new Map<string, Fields>()
  return (basePath) => {
    let headers = foundHeaders.get(basePath)
    // Stryker disable next-line ConditionalExpression: a cache; headers built again are the same headers
    if (headers === undefined) {
      headers = constantFields({ ...JSON_HEADERS, ...deprecationHeaders(basePath) })
      foundHeaders.set(basePath, headers)
    }
    return headers
  }
}

/**
 * What a request's own `Prefer: code=NNN` makes of it: an answer at once (an Error status, or a
 * refusal of the header), or the success status the operation's answer is held to; `undefined`
 * when it asks for nothing. The request's own Prefer comes before the rules a test set for every
 * request, and whatever it gets is marked forced: the journal says so, and a pact recorder leaves it out.
 */
export function preferredOutcome(request: PlainRequest): { readonly kind: 'reply'; readonly reply: PlainResponse } | { readonly kind: 'hold'; readonly status: number } | undefined {
  const operation = operationOf(request.method, request.path)
  const preferred = operation === undefined ? undefined : preferredAnswer(request.headers.prefer, operation)
  if (preferred === undefined) return undefined
  if (!preferred.ok) return { kind: 'reply', reply: toErrorResponse(preferred.error) }
  const { kind, status } = preferred.value
  if (kind === 'error') return { kind: 'reply', reply: forcedErrorResponse(status, `A ${status} answer asked for with Prefer: code=${status}.`) }
  return { kind: 'hold', status }
}

/** The operation's answer when it has the status Prefer asked for; otherwise why it could not be had. */
export function heldTo(status: number, response: PlainResponse): PlainResponse {
  return response.status === status ? response : toErrorResponse(unsatisfiable(status, response.status, errorMessageOf(response)))
}

/** The last touches of every API answer: the deprecated operation says so, its errors included; HEAD loses the body. */
export function finishReply(route: Route | undefined, request: PlainRequest, reply: Reply): Reply {
  if (isDropped(reply)) return reply
  const isGetPet = route?.kind === 'pet' && (request.method === 'GET' || request.method === 'HEAD')
  const signalled = isGetPet && !('deprecation' in reply.headers) ? withDeprecation(reply, request.basePath) : reply
  return request.method === 'HEAD' ? withoutBody(signalled) : signalled
}

// Only asked of an answer that is not the operation's one success status: one of our Error bodies.
function errorMessageOf(response: PlainResponse): string {
  return (JSON.parse(response.body as string) as ApiError).message
}

/** What a request to the API asks of its store, found without it: an operation, or an answer already (no such route, a method not allowed, a bad parameter or body). */
export type Planned = Operation | { readonly kind: 'answer'; readonly response: PlainResponse }

/** The operation a routed request asks for; `listQuery` parses (and may cache) a list's query string. */
export function planOperation(route: Route | undefined, request: PlainRequest, listQuery: (search: string) => Planned): Planned {
  if (route === undefined) {
    return answer(toErrorResponse(apiError('route_not_found', `No operation at ${request.basePath}${request.path}.`)))
  }
  const method = request.method === 'HEAD' ? 'GET' : request.method
  if (route.kind === 'pets') {
    if (method === 'GET') return listQuery(request.search)
    if (method === 'POST') {
      const body = parseJsonBody(request)
      if (!body.ok) return answer(toErrorResponse(body.error))
      const newPet = parseNewPet(body.value)
      return newPet.ok ? { kind: 'create', newPet: newPet.value } : answer(toErrorResponse(newPet.error))
    }
  } else if (method === 'GET') {
    const id = parsePetId(decodeSegment(route.segment))
    return id.ok ? { kind: 'get', id: id.value } : answer(toErrorResponse(id.error))
  }
  const allow = ALLOW[route.kind]
  return answer(toErrorResponse(apiError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { allow })))
}

function answer(response: PlainResponse): Planned {
  return { kind: 'answer', response }
}

/** A list's answer from its JSON array. */
export function listedReply(json: string): PlainResponse {
  return { status: 200, headers: JSON_HEADERS, body: json }
}

/** A lookup's answer: the animal's JSON text, or 404 when there is none. */
export function foundReply(id: Int64, json: string | undefined, foundHeaders: Fields): PlainResponse {
  if (json === undefined) return toErrorResponse(apiError('pet_not_found', `No animal has id ${id}.`))
  return { status: 200, headers: foundHeaders, body: json }
}

/** A creation's answer: 201 with the animal and its Location. */
export function createdReply(id: Int64, json: string, basePath: string): PlainResponse {
  return { status: 201, headers: createdHeaders(`${basePath}${petPath(id)}`), body: json }
}

// A page asks for the same few lists over and over: each query string is parsed once. The cache
// is emptied past this many, so odd queries cannot make it grow without end.
const LIST_QUERIES_KEPT = 256

/** The list a query string asks for, or its refusal, each query parsed once. */
export function createListQueryCache(): (search: string) => Planned {
  const parsed = new Map<string, Planned>()
  return (search) => {
    let planned = parsed.get(search)
    // Stryker disable next-line ConditionalExpression: a cache; a query parsed again gives the same answer
    if (planned === undefined) {
      if (parsed.size >= LIST_QUERIES_KEPT) parsed.clear()
      const query = parseListQuery(new URLSearchParams(search))
      planned = query.ok ? { kind: 'list', limit: query.value.limit, status: query.value.status } : answer(toErrorResponse(query.error))
      parsed.set(search, planned)
    }
    return planned
  }
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

export function preflight(route: Route | undefined, headers: Fields): PlainResponse {
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

