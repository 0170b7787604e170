/**
 * `animals-mock/seed`: realistic, reproducible animals generated with Faker. Importing it adds
 * Faker to a browser bundle; `animals-mock/msw` alone does not.
 */
export { CATEGORIES, DEFAULT_STATUS_MIX, type GenerateOptions, generatePets, type StatusMix } from './generate-pets.js'
export { type Int64, type NewPet, PET_STATUSES, type Pet, type PetStatus } from '../spec/animals-service.js'
