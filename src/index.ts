/**
 * `animals-mock`: the fake animals service as plain data in, plain data out, with no transport.
 * Transports are the subpaths `animals-mock/node` and `animals-mock/msw`.
 */
export { createFake, DEFAULT_PETS, type Fake, type FakeOptions } from './create-fake.js'
export type * from './create-fake.js'
export { type DroppedConnection, type Fields, isDropped } from './service/http.js'
export { ERROR_STATUS, type ErrorCode } from './service/errors.js'
export { type ErrorBody, type Int64, LIMIT, type NewPet, type Pet, PET_STATUSES, type PetStatus, type Schemas, type WithInt64 } from './spec/animals-service.js'
/** The contract's own types, as openapi-typescript writes them from contracts/openapi.yaml. */
export type { components, operations, paths } from './spec/openapi.generated.js'
export {
  AnimalsApiError,
  type AnimalsClient,
  type AnimalsClientOptions,
  createAnimalsClient,
  type Deprecation,
  isAnimalsApiError,
  type ListPetsQuery,
} from './client/client.js'
