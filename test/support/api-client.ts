/** What a test sends: everything optional but the path. */
export type CallOptions = {
  readonly method?: string
  readonly query?: string
  readonly headers?: Record<string, string>
  /** A string is sent as is; anything else as JSON with Content-Type: application/json. */
  readonly body?: unknown
}

/** A response as a test reads it. */
export type CallResult = {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
  readonly json: unknown
}

/** A key every test fake accepts unless a test configures its own. */
export const TEST_KEY = 'test-key-1'

/** Calls the API at `baseUrl` (e.g. `http://127.0.0.1:4321/v1`) the way a frontend would, with fetch. */
export type ApiClient = {
  readonly baseUrl: string
  call(path: string, options?: CallOptions): Promise<CallResult>
  /** The same with `Authorization: Bearer <TEST_KEY>` added. */
  authed(path: string, options?: CallOptions): Promise<CallResult>
}

/** Builds a client on the global fetch, which msw intercepts and the node server answers. */
export function createApiClient(baseUrl: string, key = TEST_KEY): ApiClient {
  async function call(path: string, options: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { ...options.headers }
    let body: string | undefined
    if (typeof options.body === 'string') body = options.body
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const url = `${baseUrl}${path}${options.query === undefined ? '' : `?${options.query}`}`
    const init: RequestInit = { method: options.method ?? 'GET', headers }
    if (body !== undefined) init.body = body
    const response = await fetch(url, init)
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, json: parseOrUndefined(text) }
  }
  return {
    baseUrl,
    call,
    authed: (path, options = {}) =>
      call(path, { ...options, headers: { authorization: `Bearer ${key}`, ...options.headers } }),
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * A client of the control API as a script uses it: the key in `Authorization` (the control API
 * needs one when the API does) and `Content-Type: application/json` on every state-changing
 * request, body or not (a request without it is refused, as a form post would be). A test's own
 * headers win.
 */
export function createControlClient(baseUrl: string, key?: string): ApiClient {
  const client = createApiClient(baseUrl, key)
  const call = (path: string, options: CallOptions = {}): Promise<CallResult> => {
    const changes = (options.method ?? 'GET') !== 'GET'
    const defaults: Record<string, string> = {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...(changes ? { 'content-type': 'application/json' } : {}),
    }
    return client.call(path, { ...options, headers: { ...defaults, ...options.headers } })
  }
  return { baseUrl, call, authed: call }
}
