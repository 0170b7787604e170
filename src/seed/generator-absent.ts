import type { createPetSource as createFakerPetSource } from './generate-pets.js'

/**
 * What `#seed-generator` is under the `browser` condition (esbuild, Vite and webpack bundling for
 * the web): Faker weighs about half a megabyte minified, so a page that bundles the msw handlers
 * does not carry it. Seeding in a page is rare; it says how to opt in.
 */
export const createPetSource: typeof createFakerPetSource = () => {
  throw new Error(
    "fake.seed() is not available in browser bundles, which leave Faker out to stay small: generate animals with generatePets from 'animals-mock/seed' and pass them to createFake({ pets }) or fake.reset(pets)",
  )
}
