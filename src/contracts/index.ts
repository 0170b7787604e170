/** `animals-mock/contracts`: the typed client of the animals service, usable against the fake or the real service. */
export {
  type AnimalsClient,
  AnimalsApiError,
  type AnimalsClientOptions,
  createAnimalsClient,
  type Deprecation,
  type ErrorBody,
  isAnimalsApiError,
  type ListPetsQuery,
  type NewPet,
  type Pet,
  type PetStatus,
} from './client.js'
