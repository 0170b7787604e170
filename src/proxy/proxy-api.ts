import { type Credential, credentialOf, judgeAnswer, type JudgedRequest, type ObservedAnswer, type Violation } from '../spec-rules/answer-rules.js'
import { credentialsOf } from '../service/credentials.js'
import { apiError, toErrorResponse } from '../service/errors.js'
import { CORS_HEADERS, type Fields, type Handler, type PlainRequest, type PlainResponse } from '../service/http.js'

import { operationOf } from '../spec/animals-service.js'
/** What the proxy sends on: the request as the client sent it, below the target's base. */
export type ForwardRequest = {
  readonly method: string
  /** Below the API base, still percent-encoded, e.g. `/pets/7`; never a `.` or `..` segment. */
  readonly path: string
  /** Without `?`. */
  readonly search: string
  /** Lower-case names; hop-by-hop headers, those `Connection` names, `host` and (unless asked) `cookie` left out. */
  readonly headers: Fields
  readonly body: Uint8Array | undefined
  /** Ends the exchange at the proxy's `--timeout`, counted from the request's arrival. */
  readonly signal: AbortSignal
}

/** The target's answer, or why there was none. */
export type ForwardAnswer =
  | {
      readonly kind: 'answer'
      readonly status: number
      /** Lower-case names; a repeated header joined with ", ", except Set-Cookie. */
      readonly headers: Fields
      /** Each Set-Cookie line, as sent: the one header that cannot be joined. */
      readonly setCookie: readonly string[]
      /** The bytes as the target sent them, with their Content-Encoding. */
      readonly body: Uint8Array<ArrayBuffer>
      /** The body decoded to text, to be judged. */
      readonly text?: string
      /** Why the body is not judged, when it is not. */
      readonly unjudged?: string
      /** Lets go of the answer's bytes once it is passed on. */
      release(): void
    }
  | { readonly kind: 'too-large'; readonly limit: number }
  | { readonly kind: 'busy' }
  | { readonly kind: 'unreachable'; readonly reason: string }
  | { readonly kind: 'timeout' }

/** One exchange through the proxy, as the checks, the journal and the recording see it. */
export type ProxiedExchange = {
  readonly request: PlainRequest
  readonly credential: Credential
  /** Every credential the request carried (`credentialsOf`), so that no output shows one. */
  readonly credentials: readonly string[]
  /** `null` when the target gave no answer (the proxy answered 502, 503 or 504 itself). */
  readonly status: number | null
  /** The answer's body as text, decoded; empty when there was none or it was not judged. */
  readonly answer: string
  readonly violations: readonly Violation[]
  /** Why the answer's body was not judged, when it was not. */
  readonly unjudged?: string
  readonly durationMs: number
}

/** Judges one answer; `undefined` when the signal ended the exchange first. */
export type Judge = (request: JudgedRequest, answer: ObservedAnswer, signal: AbortSignal) => Promise<Violation[] | undefined>

/** Options of `createProxyApi`. */
export type ProxyApiOptions = {
  /** Where requests go: the target's API base (with `/v1`), for the messages. */
  readonly target: string
  /** Sends one request to the target; the transport's. */
  readonly send: (request: ForwardRequest) => Promise<ForwardAnswer>
  /** Told of every exchange once it is answered. */
  readonly onExchange: (exchange: ProxiedExchange) => void
  /** How long a whole exchange may take, sending, reading and judging; then 504. */
  readonly timeoutMs: number
  /** Forward the client's `Cookie` header (off: cookies for localhost belong to every local app). */
  readonly forwardCookies?: boolean
  /** Judges an answer; by default in this thread (`judgeAnswer`). */
  readonly judge?: Judge
  readonly now?: () => number
}

// RFC 9110 7.6.1: these describe one connection and are never forwarded; `host` names the proxy.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length', 'proxy-authorization', 'proxy-authenticate'])

/**
 * The API side of `animals-mock proxy`: every request below `/v1` goes to the target unchanged
 * (method, path, query, headers with the client's own Authorization, body) and its answer comes
 * back as the target sent it, CORS added for browser frontends as the fake does; each answer is
 * judged by the spec's rules (`judgeAnswer`, the engine `parity` uses). Preflights are answered
 * here, since a staging service rarely allows a developer's origin. Nothing is retried.
 */
export function createProxyApi(options: ProxyApiOptions): Handler {
  const now = options.now ?? Date.now
  const judge = options.judge ?? (async (request, answer) => judgeAnswer(request, answer))
  return {
    async handle(request) {
      if (request.method === 'OPTIONS') return preflight(request.headers)
      const outside = leavesTheBase(request.path)
      if (outside !== undefined) return toErrorResponse(apiError('bad_request', `The path ${outside}: the proxy sends nothing outside the target's base.`))
      const started = now()
      const signal = AbortSignal.timeout(options.timeoutMs)
      const headers = forwarded(request.headers, options.forwardCookies === true)
      const credential = credentialOf(request.headers.authorization)
      const credentials = credentialsOf(request)
      const exchange = { request, credential, credentials }
      const answered = await options.send({ method: request.method, path: request.path, search: request.search, headers, body: request.body, signal })
      if (answered.kind !== 'answer') {
        options.onExchange({ ...exchange, status: null, answer: '', violations: [], durationMs: now() - started })
        return refusal(answered, options)
      }
      try {
        const judged = answered.text === undefined ? [] : await judge(judgedRequest(request, credential, credentials), { status: answered.status, headers: answered.headers, body: answered.text }, signal)
        if (judged === undefined || signal.aborted) {
          options.onExchange({ ...exchange, status: null, answer: '', violations: [], durationMs: now() - started })
          return refusal({ kind: 'timeout' }, options)
        }
        const unjudged = answered.unjudged === undefined ? {} : { unjudged: answered.unjudged }
        options.onExchange({ ...exchange, status: answered.status, answer: answered.text ?? '', violations: judged, ...unjudged, durationMs: now() - started })
        const passed = forwarded(answered.headers, true)
        const cookies = answered.setCookie.length === 0 ? {} : { setCookie: answered.setCookie }
        return { status: answered.status, headers: { ...passed, ...CORS_HEADERS }, bytes: answered.body, ...cookies }
      } finally {
        answered.release()
      }
    },
  }
}

function judgedRequest(request: PlainRequest, credential: Credential, credentials: readonly string[]): JudgedRequest {
  const judged = { operation: operationOf(request.method, request.path), method: request.method, path: request.path, query: request.search, credential, credentials }
  return request.body === undefined ? judged : { ...judged, body: new TextDecoder().decode(request.body) }
}

/**
 * Why a path would leave the target's base, or `undefined`: a segment that decodes to `.` or `..`
 * (a URL parser on the way normalises `/v1/%2e%2e/admin` to `/admin`) or a backslash, which some
 * servers read as `/`.
 */
export function leavesTheBase(path: string): string | undefined {
  if (/\\|%5c/i.test(path)) return `${JSON.stringify(path)} holds a backslash`
  for (const segment of path.split('/')) {
    let decoded = segment
    try {
      decoded = decodeURIComponent(segment)
    } catch {} // a malformed escape decodes to nothing else
    if (decoded === '.' || decoded === '..') return `${JSON.stringify(path)} has a ${JSON.stringify(decoded)} segment`
  }
  return undefined
}

/** Headers that may go on: not hop-by-hop, not named by `Connection` (RFC 9110 7.6.1), and `Cookie` only when asked. */
function forwarded(headers: Fields, cookies: boolean): Record<string, string> {
  const named = new Set((headers.connection ?? '').split(',').map((name) => name.trim().toLowerCase()))
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name) && !named.has(name) && (cookies || name !== 'cookie')) kept[name] = value
  }
  return kept
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
function refusal(answered: Exclude<ForwardAnswer, { kind: 'answer' }>, options: ProxyApiOptions): PlainResponse {
  const { target } = options
  switch (answered.kind) {
    case 'timeout':
      return toErrorResponse(apiError('gateway_timeout', `${target} did not answer within ${options.timeoutMs} ms (--timeout, judging included); the request was not retried.`))
    case 'too-large':
      return toErrorResponse(apiError('bad_gateway', `The answer of ${target} passed ${answered.limit} bytes (--max-answer-bytes), so it was not passed on.`))
    case 'busy':
      return toErrorResponse(apiError('server_busy', 'The proxy holds as many answer bytes as it may at once; try again.'))
    case 'unreachable':
      return toErrorResponse(apiError('bad_gateway', `The proxy could not reach ${target}: ${answered.reason}; the request was not retried.`))
  }
}
