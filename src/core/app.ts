import { authenticate, type KeyPolicy } from './auth.js'
import { apiError, toErrorResponse } from './errors.js'
import {
  CORS_HEADERS,
  type Fields,
  JSON_HEADERS,
  type PlainRequest,
  type PlainResponse,
  withoutBody,
} from './http.js'
import { parseJsonBody } from './json-body.js'
import { parseListQuery, parseNewPet, parsePetId } from './pets.js'
import type { Store, StoredPet } from './store.js'

/** Options of `createApp`. */
export type AppOptions = {
  readonly keys: KeyPolicy
  /** The store a request works on, by its accepted bearer token (one store unless isolated). */
  readonly storeFor: (token: string) => Store
}

/** The animals API as one function from plain request to plain response. */
export type App = { handle(request: PlainRequest): PlainResponse }

/** `GET /pets/{petId}` is deprecated; removal is announced for 5 December 2030 (spec 4.3, 9.2). */
export const DEPRECATION = {
  // RFC 9745 wants the date the deprecation took effect, which the spec does not give: the fake
  // sends 1 January 2026 and the contracts match any structured date.
  deprecation: '@1767225600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
} as const

type Route = { readonly kind: 'pets' } | { readonly kind: 'pet'; readonly segment: string }

const ALLOW = { pets: 'GET, HEAD, POST, OPTIONS', pet: 'GET, HEAD, OPTIONS' } as const

function matchRoute(path: string): Route | undefined {
  if (path === '/pets') return { kind: 'pets' }
  if (!path.startsWith('/pets/')) return undefined
  const segment = path.slice('/pets/'.length)
  return segment === '' || segment.includes('/') ? undefined : { kind: 'pet', segment }
}

/**
 * Creates the API. Order of checks: CORS preflight (browsers send it without credentials), then
 * the bearer key, then the route, the method, and the operation's own input.
 * @example createApp({ keys: { kind: 'any' }, storeFor: () => store }).handle(request).status
 */
export function createApp(options: AppOptions): App {
  const { keys, storeFor } = options
  function dispatch(route: Route | undefined, request: PlainRequest): PlainResponse {
    const auth = authenticate(request.headers.authorization, keys)
    if (!auth.ok) return toErrorResponse(auth.error)
    if (route === undefined) {
      return toErrorResponse(apiError('route_not_found', `No operation at ${request.basePath}${request.path}.`))
    }
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const store = storeFor(auth.value)
    if (route.kind === 'pets' && method === 'GET') return listPets(request, store)
    if (route.kind === 'pets' && method === 'POST') return createPet(request, store)
    if (route.kind === 'pet' && method === 'GET') return getPet(route.segment, store)
    return toErrorResponse(
      apiError('method_not_allowed', `${request.method} is not allowed here; use ${ALLOW[route.kind]}.`, {
        allow: ALLOW[route.kind],
      }),
    )
  }

  return {
    handle(request) {
      const route = matchRoute(request.path)
      if (request.method === 'OPTIONS') return preflight(route, request.headers)
      const response = dispatch(route, request)
      // Every answer of the deprecated operation says so, its errors included.
      const isGetPet = route?.kind === 'pet' && (request.method === 'GET' || request.method === 'HEAD')
      const signalled = isGetPet ? withDeprecation(response, request.basePath) : response
      return request.method === 'HEAD' ? withoutBody(signalled) : signalled
    },
  }
}

function listPets(request: PlainRequest, store: Store): PlainResponse {
  const query = parseListQuery(request.query)
  if (!query.ok) return toErrorResponse(query.error)
  return { status: 200, headers: JSON_HEADERS, body: toJsonArray(store.list(query.value.limit, query.value.status)) }
}

function getPet(segment: string, store: Store): PlainResponse {
  const id = parsePetId(decodeSegment(segment))
  if (!id.ok) return toErrorResponse(id.error)
  const stored = store.get(id.value)
  if (stored === undefined) return toErrorResponse(apiError('pet_not_found', `No animal has id ${id.value}.`))
  return { status: 200, headers: JSON_HEADERS, body: stored.json }
}

function createPet(request: PlainRequest, store: Store): PlainResponse {
  const body = parseJsonBody(request)
  if (!body.ok) return toErrorResponse(body.error)
  const newPet = parseNewPet(body.value)
  if (!newPet.ok) return toErrorResponse(newPet.error)
  const created = store.create(newPet.value)
  if (!created.ok) return toErrorResponse(created.error)
  const location = `${request.basePath}/pets/${created.value.pet.id}`
  return { status: 201, headers: { ...JSON_HEADERS, location }, body: created.value.json }
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

function withDeprecation(response: PlainResponse, basePath: string): PlainResponse {
  const headers = {
    ...response.headers,
    deprecation: DEPRECATION.deprecation,
    sunset: DEPRECATION.sunset,
    link: `<${basePath}/pets>; rel="successor-version"`,
  }
  return { ...response, headers }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment // not valid percent-encoding: parsePetId refuses it as it stands
  }
}

function toJsonArray(pets: readonly StoredPet[]): string {
  return `[${pets.map((pet) => pet.json).join(',')}]`
}
