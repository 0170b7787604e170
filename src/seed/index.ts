/**
 * `animals-mock/seed`: realistic, reproducible animals generated with Faker. Importing it adds
 * Faker to a browser bundle; `animals-mock/msw` alone does not.
 */
export { CATEGORIES, DEFAULT_STATUS_MIX, type GenerateOptions, generatePets, type StatusMix } from './generate-pets.js'
export { type Int64, type NewPet, PET_STATUSES, type Pet, type PetStatus, type Schemas, type WithInt64 } from '../spec/animals-service.js'
/** The contract's own types, as openapi-typescript writes them from contracts/openapi.yaml. */
export type { components, operations, paths } from '../spec/openapi.generated.js'
