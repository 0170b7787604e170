import { createServer, type Server, STATUS_CODES } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { apiError, toErrorResponse } from '../service/errors.js'
import type { Handler } from '../service/http.js'
import { type BodyLimits, createRequestListener, DEFAULT_BODY_LIMITS, type Exchange } from './exchange.js'

export { type BodyLimits, DEFAULT_BODY_LIMITS, type Exchange }

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
  /** How much of the request bodies the server holds at once; see `DEFAULT_BODY_LIMITS`. */
  readonly bodyLimits?: Partial<BodyLimits>
}

/**
 * How long a client may take: to send its headers, its whole request, and between keep-alive
 * requests; and how long requests in flight may go on once `close()` is called.
 */
export type Timeouts = { readonly headersMs: number; readonly requestMs: number; readonly keepAliveMs: number; readonly closeGraceMs: number }

/** A slow client gets 408 after these; an idle keep-alive socket is closed; 5 s after a close began, requests still in flight are cut off. */
export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, closeGraceMs: 5_000 }

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
  const listener = createRequestListener({ app, onError, onExchange, bodyLimits: { ...DEFAULT_BODY_LIMITS, ...options.bodyLimits } })
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
    listener.onRequest,
  )
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    listener.sendWaitingAnswers()
    answerClientError(error, socket)
  })
  const host = options.host ?? '127.0.0.1'
  await listen(server, options.port ?? 0, host)
  const { port } = server.address() as AddressInfo
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  return { url, port, server, close: () => closeServer(server, timeouts.closeGraceMs) }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onListenError = (error: NodeJS.ErrnoException): void => {
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use; --port 0 picks a free one`
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

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs)
    force.unref()
    server.close(() => {
      clearTimeout(force)
      resolve()
    })
    server.closeIdleConnections()
  })
}
