import type { IncomingMessage, ServerResponse } from 'node:http'
import { INTERNAL_ERROR } from '../core/errors.js'
import { type Fields, type Handler, isDropped, type PlainRequest, type PlainResponse, type Reply } from '../core/http.js'
import { MAX_BODY_BYTES } from '../core/json-body.js'

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

/** What every request of one server shares. */
export type Adapter = {
  readonly app: Handler
  readonly onError: (error: unknown) => void
  readonly onExchange: ((exchange: Exchange) => void) | undefined
}

type ServerContext = Adapter & {
  /** Header lists by the frozen header sets the core answers with; see `headerList`. */
  readonly headerLists: WeakMap<Fields, readonly string[]>
  /** Bodies answered with those header sets, encoded; see `bodyToSend`. */
  readonly bodies: Map<string, Buffer>
}

/**
 * The node:http request listener: it copies each request into a `PlainRequest`, asks the app,
 * and copies the reply back. It holds no rule of the service.
 */
export function createRequestListener(adapter: Adapter): (req: IncomingMessage, res: ServerResponse) => void {
  const server: ServerContext = { ...adapter, headerLists: new WeakMap(), bodies: new Map() }
  return (req, res) => receive(server, req, res)
}

/** One request in the making, passed along instead of captured in closures. */
type Exchanging = {
  readonly server: ServerContext
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly headers: Fields
  readonly started: number
}

function receive(server: ServerContext, req: IncomingMessage, res: ServerResponse): void {
  // Node's own req.headers is built lazily; reading it as well would build the headers twice.
  const headers = joinedHeaders(req.rawHeaders)
  const started = server.onExchange === undefined ? 0 : performance.now()
  const exchanging: Exchanging = { server, req, res, headers, started }
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
    if (length > limit && limit === MAX_BODY_BYTES) limit = server.app.bodyLimit?.(pathOf(req.url ?? '/')) ?? MAX_BODY_BYTES
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
    reply = exchanging.server.app.handle(toPlainRequest(exchanging.req, exchanging.headers, body))
  } catch (error) {
    reply = failure(error, exchanging.server.onError)
  }
  if (reply instanceof Promise) {
    reply.then(
      (settled) => deliver(exchanging, settled),
      (error: unknown) => deliver(exchanging, failure(error, exchanging.server.onError)),
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
  const { server } = exchanging
  const body = bodyToSend(server.bodies, reply)
  res.writeHead(reply.status, headerList(server.headerLists, reply.headers, body))
  res.end(body)
  report(exchanging, reply.status)
}

function report(exchanging: Exchanging, status: number | null): void {
  const { server, req, started } = exchanging
  const { onExchange } = server
  if (onExchange === undefined) return
  onExchange({ method: req.method ?? 'GET', path: pathOf(req.url ?? '/'), status, durationMs: performance.now() - started })
}

// Headers go to writeHead as one flat list, where an object, or a setHeader beside it, costs Node
// a merge on every response. The core answers most requests with frozen constant header sets, so
// their lists are built once.
function headerList(headerLists: WeakMap<Fields, readonly string[]>, headers: Fields, body: Buffer | string | undefined): string[] {
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

function withLength(list: string[], body: Buffer | string | undefined): string[] {
  if (body !== undefined) list.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length))
  return list
}

// How many encoded bodies are kept, past which they are all forgotten, and the longest kept (in
// characters): the cache stays bounded however odd the traffic.
const BODIES_KEPT = 256
const LONGEST_BODY_KEPT = 64 * 1024

// Node writes a string body by joining it to the header text and encoding the whole in the write
// itself, which is the cheapest for a body sent once (a created animal, with its own Location); a
// Buffer goes out as it is, after the header. The core answers lists and found animals with the
// very same string while the store is unchanged, and with a frozen header set: those bodies are
// encoded once and sent as Buffers, so a long list is not copied and encoded on every request.
function bodyToSend(bodies: Map<string, Buffer>, reply: PlainResponse): Buffer | string | undefined {
  const { body } = reply
  if (body === undefined || body.length > LONGEST_BODY_KEPT || !Object.isFrozen(reply.headers)) return body
  let bytes = bodies.get(body)
  if (bytes === undefined) {
    if (bodies.size >= BODIES_KEPT) bodies.clear()
    bytes = Buffer.from(body)
    bodies.set(body, bytes)
  }
  return bytes
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

