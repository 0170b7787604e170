import defaultFixture from '../fixtures/default.json' with { type: 'json' }
import { type AnimalGenerator, createFakeService, type Fake, type FakeOptions } from './core/fake-service.js'
import { parseFixtureRecords } from './core/fixture.js'
import type { Pet } from './core/pets.js'

export type { Fake, FakeOptions }

/** The animals of `fixtures/default.json`, embedded so that browsers and tests need no file access. */
export const DEFAULT_PETS: readonly Pet[] = loadDefaultPets()

/** Faker takes a moment to load and weighs much in a browser bundle, so it is loaded on first seed. */
const generateLazily: AnimalGenerator = async (options) => {
  const { createPetSource } = await import('./seed/generate-pets.js')
  return createPetSource(options)
}

/**
 * Creates a fake animals service: the API over its own in-memory store, started from `pets`
 * (the default fixture unless given). Hand it to `startServer` and to the msw handlers at once and
 * both see the same animals.
 * @example
 * const fake = createFake()
 * afterEach(() => fake.reset())
 */
export function createFake(options: FakeOptions = {}): Fake {
  return createFakeService(
    { pets: DEFAULT_PETS, ...options },
    { now: () => Date.now(), random: () => Math.random(), generate: generateLazily, pause },
  )
}

// A timer rather than a microtask: requests waiting on sockets get their turn in between.
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

function loadDefaultPets(): readonly Pet[] {
  const pets = parseFixtureRecords(defaultFixture)
  if (!pets.ok) throw new Error(`fixtures/default.json: ${pets.error}`)
  return pets.value
}
