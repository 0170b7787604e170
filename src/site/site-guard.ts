import { apiError, toErrorResponse } from '../service/errors.js'
import type { Fields, PlainRequest, PlainResponse } from '../service/http.js'
import { isJsonContentType } from '../service/json-body.js'

/**
 * Whether the server answers a request with this `Host`. A web page can point a name it owns at
 * 127.0.0.1 (DNS rebinding) and then read the fake as its own origin; its requests still carry
 * its name in `Host`. So, as Vite and webpack-dev-server do, only addresses (which a rebinding
 * page cannot have as its name), `localhost`, names under `.localhost`, and names the user lists
 * are answered. The port is not part of the decision.
 */
export type HostPolicy = (host: string | undefined) => boolean

const HOSTS_KEPT = 64

/**
 * The host policy for the names given (a name starting with `.` allows every name below it, as
 * `.example.test`). Answers are remembered for the last 64 hosts, so a request pays one lookup.
 * @example createHostPolicy(['qa-box.internal'])('qa-box.internal:4010') // true
 */
export function createHostPolicy(names: readonly string[] = []): HostPolicy {
  // A name listed with its leading dot lands in `exact` too: any host it matches there, the suffix allows anyway.
  const exact = new Set(names.map((name) => name.toLowerCase()))
  const suffixes = [...exact].filter((name) => name.startsWith('.'))
  const known = new Map<string, boolean>()
  const decide = (host: string): boolean => {
    const name = hostName(host).toLowerCase()
    if (isAddress(name) || name === 'localhost' || name.endsWith('.localhost')) return true
    return exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix) || name === suffix.slice(1))
  }
  return (host) => {
    // HTTP/1.0 may omit Host; a browser never does, so there is nothing to rebind.
    if (host === undefined) return true
    let allowed = known.get(host)
    // Stryker disable next-line ConditionalExpression: a cache; a host decided again gets the same answer
    if (allowed === undefined) {
      if (known.size >= HOSTS_KEPT) known.clear()
      allowed = decide(host)
      known.set(host, allowed)
    }
    return allowed
  }
}

function hostName(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']')
    return end === -1 ? host : host.slice(0, end + 1)
  }
  const colon = host.indexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}

/** An IPv4 address, or an IPv6 one in brackets: a name no rebinding page can have. */
function isAddress(name: string): boolean {
  return /^[0-9]{1,3}(?:\.[0-9]{1,3}){3}$/.test(name) || /^\[[0-9A-Fa-f:.]{2,45}\]$/.test(name)
}

/** The 403 for a `Host` the policy refuses; the host is not echoed, since a page chose it. */
export function refuseHost(): PlainResponse {
  return toErrorResponse(
    apiError('host_not_allowed', 'This Host is not allowed: use 127.0.0.1, localhost or a name given with --allowed-host.'),
  )
}

/**
 * Who may use the control API: the fake's own pages (their `Origin` is the fake's own), tools that
 * send no `Origin` (curl, tests, scripts), and origins the user opted in with `--control-cors`. A
 * request from any other web page is refused, and so is a state-changing request without a JSON
 * content type: a form post or a `text/plain` fetch is sent without a preflight, so it must not
 * be able to reset or replace anything.
 */
export function refuseControlRequest(request: PlainRequest, corsOrigins: ReadonlySet<string>): PlainResponse | undefined {
  if (isForeignOrigin(request, corsOrigins)) return refuseOrigin()
  const changesState = STATE_CHANGING_METHODS.has(request.method)
  if (changesState && !isJsonContentType(request.headers['content-type'] ?? '')) {
    return toErrorResponse(
      apiError('json_required', `${request.method} on the control API needs Content-Type: application/json, even without a body.`),
    )
  }
  return undefined
}

/**
 * Whether a request comes from a web page of another origin than the server's own and than those
 * opted in: an `Origin` of another site, or none from a cross-site or same-site page (an image, a
 * script), which still says where it came from. Tools send no `Origin` and pass.
 */
export function isForeignOrigin(request: PlainRequest, corsOrigins: ReadonlySet<string>): boolean {
  const { origin } = request.headers
  if (origin !== undefined) return origin !== ownOrigin(request) && !corsOrigins.has(origin)
  const site = request.headers['sec-fetch-site']
  return site === 'cross-site' || site === 'same-site'
}

/** The methods a control request changes state with: they need a JSON content type, which a simple cross-origin request cannot send. */
const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function refuseOrigin(): PlainResponse {
  return toErrorResponse(
    apiError('origin_not_allowed', 'The control API answers the fake\'s own pages and tools without an Origin; allow a web origin with --control-cors.'),
  )
}

function ownOrigin(request: PlainRequest): string | undefined {
  const { host } = request.headers
  return host === undefined ? undefined : `http://${host}`
}

/** CORS for a control answer: only an origin the user opted in gets it, named, never `*`. */
export function controlCorsHeaders(request: PlainRequest, corsOrigins: ReadonlySet<string>): Fields | undefined {
  const { origin } = request.headers
  if (origin === undefined || !corsOrigins.has(origin)) return undefined
  return { 'access-control-allow-origin': origin, vary: 'Origin' }
}

/** The answer to a preflight for the control API: permission for an opted-in origin, a 403 for any other. */
export function controlPreflight(request: PlainRequest, corsOrigins: ReadonlySet<string>): PlainResponse {
  const cors = controlCorsHeaders(request, corsOrigins)
  if (cors === undefined && request.headers.origin !== undefined) return refuseOrigin()
  return {
    status: 204,
    headers: {
      ...cors,
      'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type, X-Control-Token',
      'access-control-max-age': '600',
    },
  }
}
