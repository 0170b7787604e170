/**
 * `animals-mock/msw`: the fake as Mock Service Worker handlers, for `setupServer` (Node, vitest)
 * and `setupWorker` (the browser).
 */
export { BaseUrlError } from './base-url.js'
export { createHandlers, type HandlersOptions } from './handlers.js'
export { createFake, DEFAULT_PETS, type Fake, type FakeOptions } from '../create-fake.js'
export type * from '../create-fake.js'
export { bypassUnhandledRequests, failOnUnhandledRequests, failOnUnhandledRequestsExceptLoopback } from './listen-options.js'
export { ERROR_STATUS } from '../service/errors.js'
export { PET_STATUSES } from '../spec/animals-service.js'
export type { RecordPactOptions } from '../recording/pact-recording.js'
