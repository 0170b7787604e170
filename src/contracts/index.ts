/** `animals-mock/contracts`: the typed client of the animals service, usable against the fake or the real service. */
export {
  type AnimalsClient,
  AnimalsApiError,
  type AnimalsClientOptions,
  createAnimalsClient,
  type Deprecation,
  isAnimalsApiError,
  type ListPetsQuery,
} from '../client/client.js'
export { type ErrorBody, type Int64, type NewPet, PET_STATUSES, type Pet, type PetStatus, type Schemas, type WithInt64 } from '../spec/animals-service.js'
/** The contract's own types, as openapi-typescript writes them from contracts/openapi.yaml. */
export type { components, operations, paths } from '../spec/openapi.generated.js'
