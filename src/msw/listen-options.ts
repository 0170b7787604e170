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
