import type { IncomingMessage, ServerResponse } from 'node:http'
import { apiError, INTERNAL_ERROR, toErrorResponse } from '../service/errors.js'
import { type Fields, type Handler, isConstantFields, isDropped, type PlainRequest, type PlainResponse, type Reply } from '../service/http.js'
import { MAX_BODY_BYTES } from '../service/json-body.js'
import { scrubRequestText } from '../service/credentials.js'

/**
 * One request as a request log shows it: never the query, headers or body, which may carry
 * credentials, and its path scrubbed of those the request carried.
 */
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
  readonly bodyLimits: BodyLimits
}

/** How much of the request bodies a server holds, and reads after refusing one; see `DEFAULT_BODY_LIMITS`. */
export type BodyLimits = {
  /**
   * Request bodies held at once by every request being received, at most: past it a new body is
   * refused with 503, so that many large uploads together cannot exhaust memory.
   */
  readonly inFlightBytes: number
  /**
   * After a request is refused before its body was read (413, or refused by `admit`), the rest of
   * the body is read and dropped, as nginx's lingering close does, so that the client is still
   * sending when the answer arrives and reads it instead of a reset; at most this much and this long.
   */
  readonly lingerBytes: number
  readonly lingerMs: number
}

/** 512 MiB of bodies in flight; after a refusal, 64 MiB or 10 s read and dropped. */
export const DEFAULT_BODY_LIMITS: BodyLimits = { inFlightBytes: 512 * 1024 * 1024, lingerBytes: 64 * 1024 * 1024, lingerMs: 10_000 }

type ServerContext = Adapter & {
  /** Header lists by the frozen header sets the core answers with; see `constantHeaderList`. */
  readonly headerLists: WeakMap<Fields, readonly string[]>
  /** Bodies answered with those header sets, encoded; see `encodedAnswer`. */
  readonly answers: Map<string, EncodedAnswer>
  /** Header names as clients spell them, to their lower-case form; see `joinedHeaders`. */
  readonly lowerNames: Map<string, string>
  /** Answers waiting for the end of this turn of the event loop; see `deliver`. */
  outbox: Outgoing[]
  /** Body bytes buffered by every request being received; see `BodyLimits.inFlightBytes`. */
  inFlight: number
}

type Outgoing = { readonly exchanging: Exchanging; readonly reply: PlainResponse }

/** What a node:http server needs from the adapter. */
export type RequestListener = {
  readonly onRequest: (req: IncomingMessage, res: ServerResponse) => void
  /**
   * Writes the answers waiting for the end of this turn of the event loop now. A client error
   * (bytes that are not HTTP after a request) is answered at once on its socket: the answer to
   * the request before it must go out first.
   */
  readonly sendWaitingAnswers: () => void
}

/**
 * The node:http request listener: it copies each request into a `PlainRequest`, asks the app,
 * and copies the reply back. It holds no rule of the service.
 */
export function createRequestListener(adapter: Adapter): RequestListener {
  const server: ServerContext = { ...adapter, headerLists: new WeakMap(), answers: new Map(), lowerNames: new Map(), outbox: [], inFlight: 0 }
  return { onRequest: (req, res) => receive(server, req, res), sendWaitingAnswers: () => sendOutbox(server) }
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
  const headers = joinedHeaders(req.rawHeaders, server.lowerNames)
  const started = server.onExchange === undefined ? 0 : performance.now()
  const exchanging: Exchanging = { server, req, res, headers, started }
  // RFC 9112, 3.2: an HTTP/1.1 request has exactly one Host (two arrive joined, and a host has no comma).
  if (req.httpVersion === '1.1' && (headers.host === undefined || headers.host.includes(','))) {
    refuse(exchanging, toErrorResponse(apiError('bad_request', 'An HTTP/1.1 request needs exactly one Host header (RFC 9112).')))
    return
  }
  if (!declaresBody(headers)) {
    respond(exchanging, undefined)
    return
  }
  const { app } = server
  const refusal = app.admit?.(toPlainRequest(req, headers, undefined))
  if (refusal !== undefined) {
    refuse(exchanging, refusal)
    return
  }
  const limit = app.bodyLimit?.(req.method ?? 'GET', pathOf(req.url ?? '/')) ?? MAX_BODY_BYTES
  const declared = Number(headers['content-length'])
  if (declared > limit) {
    // Refused by its Content-Length, before a byte of it is read.
    refuse(exchanging, tooLarge(limit))
    return
  }
  const chunks: Buffer[] = []
  let length = 0
  const release = (): void => {
    server.inFlight -= length
    length = 0
  }
  const stop = (reply: PlainResponse): void => {
    req.off('data', onData)
    req.off('end', onEnd)
    release()
    refuse(exchanging, reply)
  }
  const onData = (chunk: Buffer): void => {
    if (server.inFlight + chunk.length > server.bodyLimits.inFlightBytes) {
      stop(toErrorResponse(apiError('server_busy', 'The fake is receiving too many large bodies at once; try again.')))
      return
    }
    chunks.push(chunk)
    length += chunk.length
    server.inFlight += chunk.length
    // One byte past the cap is enough to know; the rest is never buffered.
    if (length > limit) stop(tooLarge(limit))
  }
  const onEnd = (): void => {
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length)
    release()
    respond(exchanging, body)
  }
  req.on('data', onData)
  req.on('end', onEnd)
  req.once('close', release) // the client went away mid-body
}

function tooLarge(limit: number): PlainResponse {
  return toErrorResponse(apiError('payload_too_large', `The request body is larger than ${limit} bytes.`))
}

/**
 * Answers a request without reading its body, then reads and drops what the client still sends
 * (bounded by `BodyLimits`) so that it reads the answer rather than a reset.
 */
function refuse(exchanging: Exchanging, reply: PlainResponse): void {
  const { req, server } = exchanging
  let dropped = 0
  const timer = setTimeout(() => req.socket.destroy(), server.bodyLimits.lingerMs)
  timer.unref()
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > server.bodyLimits.lingerBytes) req.socket.destroy()
  })
  // A request closes once it has been read whole and answered, on a kept-alive connection too.
  req.once('close', () => clearTimeout(timer))
  // Node closes a connection the client asked to close as soon as the answer is written, while
  // the client may still be sending the body: it then meets a reset, not the answer. Kept open,
  // the connection closes once the client has sent its body and closed its side (or at the limits).
  // A request without a body has nothing left to send, and its connection closes as asked.
  if (declaresBody(exchanging.headers)) exchanging.res.shouldKeepAlive = true
  deliver(exchanging, reply)
}

function declaresBody(headers: Fields): boolean {
  return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined
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
  if ((reply.delayMs ?? 0) > 0) {
    const { delayMs, ...rest } = reply
    let held = true
    const timer = setTimeout(() => {
      held = false
      deliver(exchanging, rest)
    }, delayMs)
    res.once('close', () => {
      if (!held) return
      // The client gave up while the answer was held back: nothing will be sent.
      clearTimeout(timer)
      report(exchanging, null)
    })
    return
  }
  if (isDropped(reply)) {
    exchanging.req.socket.destroy()
    report(exchanging, null)
    return
  }
  const { server } = exchanging
  if (server.outbox.length === 0) setImmediate(sendOutbox, server)
  server.outbox.push({ exchanging, reply })
}

// Answers are written together once the event loop has read every request that was ready, not
// one by one as each is handled. On loopback a write runs the client's receiving side and wakes
// the client when it sleeps; written one by one, with a client as fast as the server, nearly every
// answer paid for a wake-up (on this 2-core VM, 14 to 18% of the server's time, measured with
// perf in `sock_def_readable`, and a client left asleep more often the slower the server). Written together, the first wakes the client and the rest find it
// awake. An answer waits at most until the end of the current turn of the loop.
function sendOutbox(server: ServerContext): void {
  const { outbox } = server
  server.outbox = []
  for (const { exchanging, reply } of outbox) {
    try {
      send(exchanging, reply)
    } catch (error) {
      // A bug must not leave the other answers of the batch unsent.
      server.onError(error)
      exchanging.res.destroy()
    }
  }
}

function send(exchanging: Exchanging, reply: PlainResponse): void {
  const { server, res } = exchanging
  if (res.destroyed) {
    report(exchanging, null) // the client went away while the answer waited
    return
  }
  const { headers } = reply
  const body = reply.bytes ?? reply.body
  const constant = isConstantFields(headers)
  const encoded = constant ? encodedAnswer(server, reply) : undefined
  if (encoded === undefined) {
    const list = constant ? [...constantHeaderList(server, headers)] : flatten(headers)
    for (const line of reply.setCookie ?? []) list.push('set-cookie', line)
    if (body !== undefined) list.push('content-length', String(Buffer.byteLength(body)))
    res.writeHead(reply.status, list)
    res.end(body)
  } else {
    res.writeHead(reply.status, encoded.headerList)
    res.end(encoded.body)
  }
  report(exchanging, reply.status)
}

function report(exchanging: Exchanging, status: number | null): void {
  const { server, req, headers, started } = exchanging
  const { onExchange } = server
  if (onExchange === undefined) return
  // The path may repeat a credential the request carried (a key as a pet id): the log shows none.
  const target = req.url ?? '/'
  const mark = target.indexOf('?')
  const search = mark === -1 ? '' : target.slice(mark + 1)
  const path = scrubRequestText(mark === -1 ? target : target.slice(0, mark), { headers, search })
  onExchange({ method: req.method ?? 'GET', path, status, durationMs: performance.now() - started })
}

// Headers go to writeHead as one flat list, where an object, or a setHeader beside it, costs Node
// a merge on every response. The core answers most requests with frozen constant header sets, so
// their lists are built once.
function constantHeaderList(server: ServerContext, headers: Fields): readonly string[] {
  let list = server.headerLists.get(headers)
  // Stryker disable next-line ConditionalExpression: a cache; a list flattened again is the same list
  if (list === undefined) {
    list = flatten(headers)
    server.headerLists.set(headers, list)
  }
  return list
}

function flatten(headers: Fields): string[] {
  const list: string[] = []
  for (const name in headers) list.push(name, headers[name] as string)
  return list
}

/** A body encoded once, with the complete header list it goes out with. */
type EncodedAnswer = {
  readonly headers: Fields
  /** Frozen: writeHead only reads it (its types ask for a mutable array). */
  readonly headerList: string[]
  readonly body: Buffer
}

// How many encoded answers are kept, past which they are all forgotten, and the longest body kept
// (in characters): the cache stays bounded however odd the traffic.
const ANSWERS_KEPT = 256
const LONGEST_BODY_KEPT = 64 * 1024

// Node writes a string body by joining it to the header text and encoding the whole in the write
// itself, which is the cheapest for a body sent once (a created animal, with its own Location); a
// Buffer goes out as it is, after the header. The core answers lists and found animals with the
// very same string while the store is unchanged, and with a frozen header set: those bodies are
// encoded once and sent as Buffers, with their header list, so a long list is not copied and
// encoded on every request. Node only reads the list it is given. Only for frozen header sets.
// Stryker disable next-line BlockStatement: without the cache the slow path writes the same bytes
function encodedAnswer(server: ServerContext, reply: PlainResponse): EncodedAnswer | undefined {
  const { body, headers } = reply
  const { answers } = server
  if (body === undefined || body.length > LONGEST_BODY_KEPT) return undefined
  const known = answers.get(body)
  if (known?.headers === headers) return known
  if (answers.size >= ANSWERS_KEPT) answers.clear()
  const bytes = known?.body ?? Buffer.from(body)
  const list = [...constantHeaderList(server, headers), 'content-length', String(bytes.length)]
  Object.freeze(list)
  const answer = { headers, headerList: list, body: bytes }
  answers.set(body, answer)
  return answer
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

// Clients send the same few header names on every request. Looking the lower-case name up costs
// less than making it again, and hands V8 a property key it already knows (about 90 ns a request
// for three headers, measured). Forgotten past this many, so odd names cannot grow it without end.
const NAMES_KEPT = 256

/**
 * Header names lower-cased and repeats joined with ", ", as fetch's `Headers` does. Node's own
 * `req.headers` keeps only the first `Authorization`, which would make the two transports differ.
 */
function joinedHeaders(raw: readonly string[], lowerNames: Map<string, string>): Fields {
  // A plain object stays fast; a header named __proto__ cannot pollute it (assigning a string to
  // __proto__ is ignored) and the core reads only the names it knows.
  const headers: Record<string, string> = {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const rawName = raw[i] as string
    let name = lowerNames.get(rawName)
    // Stryker disable next-line ConditionalExpression: a cache; a name lower-cased again is the same name
    if (name === undefined) {
      if (lowerNames.size >= NAMES_KEPT) lowerNames.clear()
      name = rawName.toLowerCase()
      lowerNames.set(rawName, name)
    }
    const value = raw[i + 1] as string
    const previous = headers[name]
    headers[name] = previous === undefined ? value : `${previous}, ${value}`
  }
  return headers
}

