export { type NewPet, type Pet, type PetStatus } from '../spec/animals-service.js'
/**
 * `animals-mock/msw`: the fake as Mock Service Worker handlers, for `setupServer` (Node, vitest)
 * and `setupWorker` (the browser).
 */
export { BaseUrlError } from './base-url.js'
export { createHandlers, type HandlersOptions } from './handlers.js'
export { createFake, DEFAULT_PETS, type Fake, type FakeOptions } from '../fake.js'
export { bypassUnhandledRequests, failOnUnhandledRequests } from './listen-options.js'
