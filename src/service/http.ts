/** Header fields with lower-case names; a repeated header arrives joined with ", ". */
export type Fields = Readonly<Record<string, string>>

declare const constant: unique symbol

/**
 * Header fields fixed for good: the same object always holds the same fields, so a transport may
 * keep what it derives from them (node/exchange.ts keeps their flat list, and the encoded answers
 * that carry them). The core answers most requests with a few such sets, made once by
 * `constantFields`; any other `Fields` is read afresh for each answer.
 */
export type ConstantFields = Fields & { readonly [constant]: true }

/** Fields made constant: frozen, and so recognised by `isConstantFields`. */
export function constantFields(fields: Record<string, string>): ConstantFields {
  return Object.freeze(fields) as ConstantFields
}

/** Whether header fields were made with `constantFields` (a frozen object is taken as such). */
export function isConstantFields(fields: Fields): fields is ConstantFields {
  return Object.isFrozen(fields)
}

/** A request as every transport hands it to the core: no sockets, no streams. */
export type PlainRequest = {
  readonly method: string
  /** The path below the API base, e.g. `/pets/7` for `/v1/pets/7`, still percent-encoded. */
  readonly path: string
  /** The path prefix the client used to reach the API, e.g. `/v1`; used to build `Location` and `Link`. */
  readonly basePath: string
  /** The query string without `?`, still percent-encoded: parsed only where an operation reads it. */
  readonly search: string
  readonly headers: Fields
  /** Always present, `undefined` without a body: one shape for every request keeps the hot path fast. */
  readonly body: Uint8Array | undefined
}

/** A response as the core decides it; transports copy it onto the wire. */
export type PlainResponse = {
  readonly status: number
  /** Constant fields (`constantFields`) let a transport reuse what it made of them. */
  readonly headers: Fields | ConstantFields
  readonly body?: string
  /** A body of bytes passed on as another server sent them (the proxy's), in place of `body`. */
  readonly bytes?: Uint8Array<ArrayBuffer>
  /** Set-Cookie lines, one each: the one header that cannot be joined with ", " (RFC 9110 5.3). */
  readonly setCookie?: readonly string[]
  /** Wait this long before answering (a latency setting or a forced delay). */
  readonly delayMs?: number
}

/** No answer at all: the transport closes the connection (a forced network error). */
export type DroppedConnection = { readonly kind: 'drop'; readonly delayMs?: number }

/** What the core tells a transport to do with a request. */
export type Reply = PlainResponse | DroppedConnection

/** Anything a transport can serve: the API, the fake with its controls, the whole site. */
export type Handler = {
  handle(request: PlainRequest): Reply | Promise<Reply>
  /**
   * Asked before a body is read (the request arrives without one): a response refuses the request
   * at once, so a refused client cannot make the server buffer its body.
   */
  admit?(request: PlainRequest): PlainResponse | undefined
  /** The most body bytes worth reading for a method and path; a transport may stop one byte past it. */
  bodyLimit?(method: string, path: string): number
}

/** Whether a reply is a dropped connection rather than a response. */
export function isDropped(reply: Reply): reply is DroppedConnection {
  return 'kind' in reply
}

/** The same response for a HEAD request: headers only. */
export function withoutBody(response: PlainResponse): PlainResponse {
  const { body: _body, ...rest } = response
  return rest
}

/** Expected outcomes are values; `parse*` functions return one of these. */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E }

/** Wraps a success. */
export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value })

/** Wraps a failure. */
export const fail = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error })

/** What a success holds, made into something else; a failure as it is. */
export function mapped<T, U, E>(result: Result<T, E>, map: (value: T) => U): Result<U, E> {
  return result.ok ? ok(map(result.value)) : result
}

/** Every response is JSON except the pages and documents served outside the API. */
export const JSON_TYPE = 'application/json'

/**
 * Browser frontends on another origin call the fake with a bearer token, never cookies, so `*` is
 * enough; the headers a page must be able to read are exposed.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Deprecation, Sunset, Link, Allow, WWW-Authenticate',
} as const satisfies Fields

/** Content type plus CORS: the header set most responses need, built once. */
export const JSON_HEADERS: ConstantFields = constantFields({ 'content-type': JSON_TYPE, ...CORS_HEADERS })
