import { delay, http, HttpResponse, type HttpHandler } from 'msw'
import { INTERNAL_ERROR } from '../service/errors.js'
import { type Handler, isDropped, type PlainRequest, type Reply } from '../service/http.js'
import { createFake, type Fake } from '../create-fake.js'
import { type RecordPactOptions, recordingFor } from '../recording/pact-recording.js'
import { type ApiBase, resolveApiBase, toMatcher } from './base-url.js'

/** Options of `createHandlers`. */
export type HandlersOptions = {
  /**
   * Where the API is, including its version prefix: absolute (`https://api.example.com/v1`), or
   * relative (`/v1`) in a browser, where it is resolved against the page's origin.
   */
  readonly baseUrl: string
  /**
   * The fake to serve, e.g. `createFake()`; give the same one to `startServer` and both see the
   * same animals. A new `createFake()` (the embedded default animals) when omitted.
   */
  readonly fake?: Handler
  /** Called with anything the fake throws: a bug, answered with 500. Defaults to `console.error`. */
  readonly onError?: (error: unknown) => void
  /**
   * Record the app's traffic as a Pact V4 contract for `consumer`, written into `dir` by
   * `writePacts()` from `animals-mock/node` (call it in `afterAll`). Needs a fake from `createFake`.
   */
  readonly recordPact?: RecordPactOptions
}

/**
 * msw request handlers that hand every request under `baseUrl` to the fake: one catch-all that
 * copies the msw `Request` into a `PlainRequest` and the fake's reply back into a `Response`. It
 * holds no rule of the service.
 * @example
 * const fake = createFake()
 * const server = setupServer(...createHandlers({ baseUrl: 'https://api.example.com/v1', fake }))
 */
export function createHandlers(options: HandlersOptions): HttpHandler[] {
  const base = resolveApiBase(options.baseUrl)
  const fake = options.fake ?? createFake()
  if (options.recordPact !== undefined) {
    if (!('observe' in fake)) throw new Error('recordPact needs a fake made by createFake()')
    ;(fake as Fake).observe(recordingFor(options.recordPact).record)
  }
  const onError = options.onError ?? ((error: unknown) => console.error(error))
  const handler = http.all(toMatcher(base), async ({ request }) => {
    let reply: Reply
    try {
      reply = await fake.handle(await toPlainRequest(request, base))
    } catch (error) {
      onError(error)
      reply = INTERNAL_ERROR
    }
    return toResponse(reply, request.method)
  })
  refuseUnfitRuntime(handler)
  return [handler]
}

/**
 * msw 3 needs Node 22.12 or later: on Node 20 it installs with only a warning, then fails every
 * request it answers with "Promise.withResolvers is not a function". Said once, here, instead.
 * msw 3's handlers are the ones that can be disposed.
 */
function refuseUnfitRuntime(handler: HttpHandler): void {
  if (!('dispose' in handler) || typeof (Promise as { withResolvers?: unknown }).withResolvers === 'function') return
  const runtime = typeof process === 'undefined' ? 'this runtime' : `Node ${process.version}`
  throw new Error(`msw 3 needs Node 22.12 or later, and ${runtime} lacks Promise.withResolvers: run on Node 22.12+, or install msw 2 (npm i -D msw@2)`)
}

async function toPlainRequest(request: Request, base: ApiBase): Promise<PlainRequest> {
  const url = new URL(request.url)
  return {
    method: request.method,
    path: url.pathname.slice(base.basePath.length),
    basePath: base.basePath,
    search: url.search.slice(1),
    headers: toFields(request.headers),
    body: request.body === null ? undefined : new Uint8Array(await request.arrayBuffer()),
  }
}

/**
 * The request's headers as the core reads them, by lower-case name. The Fetch standard has
 * `Headers` iterate lower-case names, repeated fields joined by ", "; happy-dom's join them too but
 * keep the case a name was first given (`Authorization`).
 */
function toFields(headers: Headers): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of headers) fields[name.toLowerCase()] = value
  return fields
}

// setTimeout, which msw's delay() uses, cannot wait longer than this.
const LONGEST_DELAY_MS = 2_147_483_647

// Statuses whose responses have no body; fetch's Response refuses one, where node:http drops it.
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304])

async function toResponse(reply: Reply, method: string): Promise<Response> {
  if (reply.delayMs !== undefined && reply.delayMs > 0) await delay(Math.min(reply.delayMs, LONGEST_DELAY_MS))
  if (isDropped(reply)) return HttpResponse.error()
  const hasBody = method !== 'HEAD' && !NULL_BODY_STATUSES.has(reply.status) // an undefined body is no body too
  const headers = new Headers(reply.headers)
  for (const line of reply.setCookie ?? []) headers.append('set-cookie', line)
  return new Response(hasBody ? (reply.bytes ?? reply.body) : null, { status: reply.status, headers })
}
