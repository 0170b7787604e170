export { type Int64 } from './spec/animals-service.js'
export { LIMIT, type NewPet, type Pet, PET_STATUSES, type PetStatus } from './spec/animals-service.js'
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
} from './service/http.js'
export { ERROR_STATUS, type ErrorCode } from './service/errors.js'
export { AnimalsApiError, type AnimalsClient, createAnimalsClient, isAnimalsApiError } from './client/client.js'
