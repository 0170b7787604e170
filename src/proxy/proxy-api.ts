import { type Credential, credentialOf, judgeAnswer, operationOf, type Violation } from '../contracts/answer-rules.js'
import { apiError, toErrorResponse } from '../core/errors.js'
import { CORS_HEADERS, type Fields, type Handler, type PlainRequest, type PlainResponse } from '../core/http.js'

/** What the proxy sends on: the request as the client sent it, below the target's base. */
export type ForwardRequest = {
  readonly method: string
  /** Below the API base, still percent-encoded, e.g. `/pets/7`. */
  readonly path: string
  /** Without `?`. */
  readonly search: string
  /** Lower-case names; hop-by-hop headers and `host` already left out. */
  readonly headers: Fields
  readonly body: Uint8Array | undefined
}

/** The target's answer, or why there was none. */
export type ForwardAnswer =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Fields; readonly body: string }
  | { readonly kind: 'unreachable'; readonly reason: string }
  | { readonly kind: 'timeout' }

/** One exchange through the proxy, as the checks, the journal and the recording see it. */
export type ProxiedExchange = {
  readonly request: PlainRequest
  readonly credential: Credential
  /** `null` when the target gave no answer (the proxy answered 502 or 504 itself). */
  readonly status: number | null
  readonly answer: string
  readonly violations: readonly Violation[]
  readonly durationMs: number
}

/** Options of `createProxyApi`. */
export type ProxyApiOptions = {
  /** Where requests go: the target's API base (with `/v1`), for the messages. */
  readonly target: string
  /** Sends one request to the target; the transport's (node's fetch with a timeout). */
  readonly send: (request: ForwardRequest) => Promise<ForwardAnswer>
  /** Told of every exchange once it is answered. */
  readonly onExchange: (exchange: ProxiedExchange) => void
  readonly now?: () => number
}

// RFC 9110 7.6.1: these describe one connection and are never forwarded; `host` names the proxy.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length', 'proxy-authorization', 'proxy-authenticate'])

/**
 * The API side of `animals-mock proxy`: every request below `/v1` goes to the target unchanged
 * (method, path, query, headers with the client's own Authorization, body) and its answer comes
 * back unchanged, CORS added for browser frontends as the fake does; each answer is judged by the
 * spec's rules (`judgeAnswer`, the engine `parity` uses). Preflights are answered here, since a
 * staging service rarely allows a developer's origin. Nothing is retried.
 */
export function createProxyApi(options: ProxyApiOptions): Handler {
  const now = options.now ?? Date.now
  return {
    async handle(request) {
      if (request.method === 'OPTIONS') return preflight(request.headers)
      const started = now()
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name)))
      const credential = credentialOf(request.headers.authorization)
      const answered = await options.send({ method: request.method, path: request.path, search: request.search, headers, body: request.body })
      if (answered.kind !== 'answer') {
        const response = answered.kind === 'timeout' ? timeoutResponse(options.target) : unreachableResponse(options.target, answered.reason)
        options.onExchange({ request, credential, status: null, answer: '', violations: [], durationMs: now() - started })
        return response
      }
      const violations = judgeAnswer(
        {
          operation: operationOf(request.method, request.path),
          method: request.method,
          path: request.path,
          query: request.search,
          credential,
          ...(request.body === undefined ? {} : { body: new TextDecoder().decode(request.body) }),
        },
        { status: answered.status, headers: answered.headers, body: answered.body },
      )
      options.onExchange({ request, credential, status: answered.status, answer: answered.body, violations, durationMs: now() - started })
      const passed = Object.fromEntries(Object.entries(answered.headers).filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'content-encoding'))
      return { status: answered.status, headers: { ...passed, ...CORS_HEADERS }, body: answered.body }
    },
  }
}

function preflight(headers: Fields): PlainResponse {
  return {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      'access-control-allow-headers': headers['access-control-request-headers'] ?? 'Authorization, Content-Type',
      'access-control-max-age': '600',
    },
  }
}

// The Error body's headers (JSON_HEADERS) carry the CORS a browser needs to read it.
function unreachableResponse(target: string, reason: string): PlainResponse {
  return toErrorResponse(apiError('bad_gateway', `The proxy could not reach ${target}: ${reason}; the request was not retried.`))
}

function timeoutResponse(target: string): PlainResponse {
  return toErrorResponse(apiError('gateway_timeout', `${target} did not answer in time; the request was not retried.`))
}
