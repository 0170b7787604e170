import { isLoopback } from '../service/loopback.js'

/**
 * `server.listen()` / `worker.start()` options that make a request no handler takes fail the test,
 * on msw 2 and msw 3 alike. msw 3 renamed the option (`onUnhandledRequest` became
 * `onUnhandledFrame`); each version ignores the other's name, so both are set.
 * @example beforeAll(() => server.listen(failOnUnhandledRequests))
 */
export const failOnUnhandledRequests = Object.freeze({
  /** msw 2. */
  onUnhandledRequest: 'error',
  /** msw 3. */
  onUnhandledFrame: 'error',
} as const)

/**
 * `worker.start()` / `server.listen()` options that let a request no handler takes go to the network
 * quietly (the page's own assets, other APIs), on msw 2 and msw 3 alike; both names are set, as in
 * `failOnUnhandledRequests`.
 * @example await worker.start(bypassUnhandledRequests)
 */
export const bypassUnhandledRequests = Object.freeze({
  /** msw 2. */
  onUnhandledRequest: 'bypass',
  /** msw 3. */
  onUnhandledFrame: 'bypass',
} as const)

/**
 * `server.listen()` options for a backend's tests (NestJS with supertest): a request no handler
 * takes fails the test, as with `failOnUnhandledRequests`, unless it goes to this machine's
 * loopback (`127.0.0.1`, `localhost`, `::1`), where supertest calls the app under test; on msw 2
 * and msw 3 alike.
 * @example beforeAll(() => server.listen(failOnUnhandledRequestsExceptLoopback))
 */
export const failOnUnhandledRequestsExceptLoopback = Object.freeze({
  /** msw 2. */
  onUnhandledRequest: (request: Request, print: { error(): void | Promise<void> }): Promise<void> | void => unlessLoopback(request.url, print.error),
  /** msw 3 (and the core of msw 2.12 and later, where a callback's `error()` only prints). */
  onUnhandledFrame: ({ frame, defaults }: { frame: { data?: unknown }; defaults: { error(): void | Promise<void> } }): Promise<void> | void => unlessLoopback(requestUrlOf(frame.data), defaults.error),
})

/**
 * Lets a request to the loopback go; any other is printed as msw prints an unhandled request
 * (`print`), then fails as a network error, as with msw's `error` strategy: msw answers a callback
 * that throws `Response.error()` with it, and any other throw with a 500.
 */
function unlessLoopback(url: string | undefined, print: () => void | Promise<void>): Promise<void> | void {
  if (url !== undefined && isLoopback(new URL(url).hostname)) return undefined
  const refuse = (): never => {
    throw Response.error()
  }
  const printed = print()
  return printed instanceof Promise ? printed.then(refuse) : refuse()
}

/** The URL of an HTTP frame's request (its `data` holds `request`); `undefined` for any other frame (a WebSocket). */
function requestUrlOf(data: unknown): string | undefined {
  const request = typeof data === 'object' && data !== null && 'request' in data ? data.request : undefined
  return typeof request === 'object' && request !== null && 'url' in request && typeof request.url === 'string' ? request.url : undefined
}
