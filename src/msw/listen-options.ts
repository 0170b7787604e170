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
