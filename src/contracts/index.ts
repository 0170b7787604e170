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
export type { ErrorBody, Int64, NewPet, Pet, PetStatus } from '../spec/animals-service.js'
