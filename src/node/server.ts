import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { apiError, INTERNAL_ERROR, toErrorResponse } from '../core/errors.js'
import { type Fields, type Handler, isDropped, type PlainRequest, type Reply } from '../core/http.js'
import { MAX_BODY_BYTES } from '../core/json-body.js'

/** Options of `startServer`. */
export type ServerOptions = {
  /** The whole site: `createSite({ api: fake })`. */
  readonly app: Handler
  /** 0 (the default) picks a free port. */
  readonly port?: number
  /** 127.0.0.1 unless told otherwise. */
  readonly host?: string
  /** Called with anything the app throws: a bug, answered with 500. */
  readonly onError?: (error: unknown) => void
  /** Limits that keep slow or idle clients from holding sockets; see `DEFAULT_TIMEOUTS`. */
  readonly timeouts?: Partial<Timeouts>
  /** Called once each request is over, for request logs. */
  readonly onExchange?: (exchange: Exchange) => void
}

/** One request as a request log shows it: never the query, headers or body, which may carry credentials. */
export type Exchange = {
  readonly method: string
  /** The path without the query string. */
  readonly path: string
  /** `null` when no answer was sent: the connection was dropped on purpose, or the client went away. */
  readonly status: number | null
  /** From the request's arrival to the end of the answer, latency included. */
  readonly durationMs: number
}

/** How long a client may take: to send its headers, its whole request, and between keep-alive requests. */
export type Timeouts = { readonly headersMs: number; readonly requestMs: number; readonly keepAliveMs: number }

/** A slow client gets 408 after these; an idle keep-alive socket is closed. */
export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 }

/** A listening server. */
export type RunningServer = {
  /** The origin, e.g. `http://127.0.0.1:4010`; the API is at `${url}/v1`. */
  readonly url: string
  readonly port: number
  readonly server: Server
  /** Stops accepting, lets requests in flight finish, then closes every connection. */
  close(): Promise<void>
}

/** Thrown when the server cannot listen, e.g. a port already taken. */
export class ListenError extends Error {
  override readonly name = 'ListenError'
  readonly code: string | undefined

  constructor(message: string, code: string | undefined) {
    super(message)
    this.code = code
  }
}

/**
 * Starts the node:http adapter: it copies each request into a `PlainRequest`, asks the app, and
 * copies the `PlainResponse` back. It holds no rule of the service.
 * @example const server = await startServer({ app: createSite({ api: createFake() }) })
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { app, onExchange } = options
  const onError = options.onError ?? ((error: unknown) => console.error(error))
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const server = createServer(
    {
      // Without a Host header Node would answer 400 itself, with no Error body; the fake has no use for Host.
      requireHostHeader: false,
      headersTimeout: timeouts.headersMs,
      requestTimeout: Math.max(timeouts.requestMs, timeouts.headersMs),
      keepAliveTimeout: timeouts.keepAliveMs,
      // Node checks the two timeouts above on this interval (30 s by default, far too coarse here).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, timeouts.headersMs / 4)),
    },
    (req, res) => receive(req, res, app, onError, onExchange),
  )
  server.on('clientError', answerClientError)
  const host = options.host ?? '127.0.0.1'
  await listen(server, options.port ?? 0, host)
  const { port } = server.address() as AddressInfo
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  return { url, port, server, close: () => closeServer(server) }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onListenError = (error: NodeJS.ErrnoException): void => {
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use`
          : error.code === 'EADDRNOTAVAIL'
            ? `address ${host} is not available on this machine`
            : error.code === 'EACCES'
              ? `no permission to listen on ${host}:${port}`
              : error.message
      reject(new ListenError(`cannot listen: ${reason}`, error.code))
    }
    server.once('error', onListenError)
    server.listen(port, host, () => {
      server.off('error', onListenError)
      resolve()
    })
  })
}

/** What the adapter needs to answer one request, passed along instead of captured in closures. */
type Exchanging = {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly app: Handler
  readonly onError: (error: unknown) => void
  readonly onExchange: ((exchange: Exchange) => void) | undefined
  readonly headers: Fields
  readonly started: number
}

function receive(
  req: IncomingMessage,
  res: ServerResponse,
  app: Handler,
  onError: (error: unknown) => void,
  onExchange: ((exchange: Exchange) => void) | undefined,
): void {
  // Node's own req.headers is built lazily; reading it as well would build the headers twice.
  const headers = joinedHeaders(req.rawHeaders)
  const started = onExchange === undefined ? 0 : performance.now()
  const exchanging: Exchanging = { req, res, app, onError, onExchange, headers, started }
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
    respond(exchanging, undefined)
    return
  }
  // Only a body past the API's cap needs the path's own limit (the control API takes more).
  let limit = MAX_BODY_BYTES
  const chunks: Buffer[] = []
  let length = 0
  const onData = (chunk: Buffer): void => {
    chunks.push(chunk)
    length += chunk.length
    if (length > limit && limit === MAX_BODY_BYTES) limit = app.bodyLimit?.(pathOf(req.url ?? '/')) ?? MAX_BODY_BYTES
    // One byte past the cap is enough for the app to answer 413; the rest is never buffered.
    if (length > limit) {
      req.off('data', onData)
      req.off('end', onEnd)
      res.setHeader('connection', 'close')
      respond(exchanging, Buffer.concat(chunks, limit + 1))
    }
  }
  const onEnd = (): void => respond(exchanging, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length))
  req.on('data', onData)
  req.on('end', onEnd)
}

function respond(exchanging: Exchanging, body: Uint8Array | undefined): void {
  let reply: Reply | Promise<Reply>
  try {
    reply = exchanging.app.handle(toPlainRequest(exchanging.req, exchanging.headers, body))
  } catch (error) {
    reply = failure(error, exchanging.onError)
  }
  if (reply instanceof Promise) {
    reply.then(
      (settled) => deliver(exchanging, settled),
      (error: unknown) => deliver(exchanging, failure(error, exchanging.onError)),
    )
  } else {
    deliver(exchanging, reply)
  }
}

function failure(error: unknown, onError: (error: unknown) => void): Reply {
  onError(error)
  return INTERNAL_ERROR
}

function deliver(exchanging: Exchanging, reply: Reply): void {
  const { res } = exchanging
  if (reply.delayMs !== undefined && reply.delayMs > 0) {
    const { delayMs, ...rest } = reply
    const timer = setTimeout(() => deliver(exchanging, rest), delayMs)
    res.once('close', () => clearTimeout(timer)) // the client gave up
    return
  }
  if (isDropped(reply)) {
    res.socket?.destroy()
    report(exchanging, null)
    return
  }
  if (res.destroyed) {
    report(exchanging, null)
    return
  }
  res.writeHead(reply.status, headerList(reply.headers, reply.body))
  res.end(reply.body)
  report(exchanging, reply.status)
}

function report(exchanging: Exchanging, status: number | null): void {
  const { onExchange, req, started } = exchanging
  if (onExchange === undefined) return
  onExchange({ method: req.method ?? 'GET', path: pathOf(req.url ?? '/'), status, durationMs: performance.now() - started })
}

// Headers go to writeHead as one flat list, where an object, or a setHeader beside it, costs Node
// a merge on every response. The core answers most requests with frozen constant header sets, so
// their lists are built once.
const headerLists = new WeakMap<Fields, readonly string[]>()

function headerList(headers: Fields, body: string | undefined): string[] {
  let list = headerLists.get(headers)
  if (list === undefined) {
    const flat: string[] = []
    for (const name in headers) flat.push(name, headers[name] as string)
    if (!Object.isFrozen(headers)) return withLength(flat, body)
    headerLists.set(headers, flat)
    list = flat
  }
  return withLength([...list], body)
}

function withLength(list: string[], body: string | undefined): string[] {
  if (body !== undefined) list.push('content-length', String(Buffer.byteLength(body)))
  return list
}

function pathOf(target: string): string {
  const mark = target.indexOf('?')
  return mark === -1 ? target : target.slice(0, mark)
}

function toPlainRequest(req: IncomingMessage, headers: Fields, body: Uint8Array | undefined): PlainRequest {
  const target = req.url ?? '/'
  const mark = target.indexOf('?')
  return {
    method: req.method ?? 'GET',
    path: mark === -1 ? target : target.slice(0, mark),
    basePath: '',
    search: mark === -1 ? '' : target.slice(mark + 1),
    headers,
    body,
  }
}

/**
 * Header names lower-cased and repeats joined with ", ", as fetch's `Headers` does. Node's own
 * `req.headers` keeps only the first `Authorization`, which would make the two transports differ.
 */
function joinedHeaders(raw: readonly string[]): Fields {
  // A plain object stays fast; a header named __proto__ cannot pollute it (assigning a string to
  // __proto__ is ignored) and the core reads only the names it knows.
  const headers: Record<string, string> = {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    const value = raw[i + 1] as string
    const previous = headers[name]
    headers[name] = previous === undefined ? value : `${previous}, ${value}`
  }
  return headers
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const response = toErrorResponse(
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? apiError('request_timeout', 'The request took too long to arrive.')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? apiError('headers_too_large', 'The request headers are larger than 16 KiB.')
        : apiError('bad_request', 'The request is not valid HTTP/1.1.'),
  )
  const head = Object.entries(response.headers).map(([name, value]) => `${name}: ${value}\r\n`)
  socket.end(
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}\r\n${head.join('')}` +
      `content-length: ${Buffer.byteLength(response.body ?? '')}\r\nconnection: close\r\n\r\n${response.body}`,
  )
}

// Requests still in flight this long after a shutdown began are cut off.
const SHUTDOWN_GRACE_MS = 5000

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS)
    force.unref()
    server.close(() => {
      clearTimeout(force)
      resolve()
    })
    server.closeIdleConnections()
  })
}
