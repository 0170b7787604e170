/**
 * `animals-mock`: the fake animals service as plain data in, plain data out, with no transport.
 * Transports are the subpaths `animals-mock/node` and `animals-mock/msw`.
 */
export { createFake, DEFAULT_PETS, type Fake, type FakeOptions } from './fake.js'
export {
  type DroppedConnection,
  type Fields,
  type Handler,
  isDropped,
  type PlainRequest,
  type PlainResponse,
  type Reply,
} from './core/http.js'
export { LIMIT, type NewPet, PET_STATUSES, type Pet, type PetStatus } from './core/pets.js'
export { ERROR_STATUS, type ErrorCode } from './core/errors.js'
export type { Int64 } from './core/int64.js'
export { AnimalsApiError, type AnimalsClient, createAnimalsClient, isAnimalsApiError } from './contracts/client.js'
