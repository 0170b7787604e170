import type { AnimalGenerator } from './status-mix.js'

/**
 * Faker takes a moment to load, so it is loaded on first seed; `#seed-generator` (package.json
 * `imports`) is Faker in Node and a module without it under the `browser` condition, so a page
 * bundle of the msw handlers holds no Faker, split into chunks or not.
 */
export const generateLazily: AnimalGenerator = async (options) => {
  const { createPetSource } = await import('#seed-generator')
  return createPetSource(options)
}
