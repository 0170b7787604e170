import type { Faker, LocaleDefinition } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { nextInt64 } from '../service/int64.js'
import { CATEGORIES } from './categories.js'
import { DEFAULT_STATUS_MIX, STATUS_MIX_KEYS, type StatusMix } from './status-mix.js'
import type { NewPet, Pet } from '../spec/animals-service.js'
import type { Int64 } from '../spec/animals-service.js'

export { CATEGORIES } from './categories.js'

export { DEFAULT_STATUS_MIX, type StatusMix } from './status-mix.js'

/**
 * Faker's class, reached through its English entry: the package's root imports its 70 locales
 * (400 ms to load in Node, seconds more under Jest's Babel transform), this entry only English and
 * the base data (60 ms). Each source gets an instance of its own, seeded apart.
 */
const FakerClass = englishFaker.constructor as new (options: { readonly locale: LocaleDefinition; readonly seed: number }) => Faker


/**
 * Pets are named like people about as often as with pet names, and Faker has 42 pet names but
 * thousands of first names: four in ten animals get a pet name ("Bella"), four a first name
 * ("Theodora"), and two a fruit, a colour or a spice ("Coconut", "Indigo"), as pets often are.
 */
function petName(faker: Faker): string {
  const kind = faker.number.int(9)
  if (kind < 4) return faker.animal.petName()
  if (kind < 8) return faker.person.firstName()
  const word = faker.helpers.arrayElement([faker.food.fruit, faker.color.human, faker.food.spice])()
  return word.includes(' ') ? faker.person.firstName() : word.charAt(0).toUpperCase() + word.slice(1)
}

/** Options of `generatePets`. */
export type GenerateOptions = {
  readonly seed: number
  readonly count: number
  /** The id of the first animal; the rest follow one by one. */
  readonly firstId?: Int64
  readonly statusMix?: StatusMix
  /** Called with the number generated so far, every `PROGRESS_STEP` animals. */
  readonly onProgress?: (done: number) => void
}

/** How often `onProgress` is called. */
export const PROGRESS_STEP = 50_000

/**
 * A source of realistic new animals, one at a time, so that a million can be stored without a
 * million-element array in between. It owns its Faker instance and nothing else draws from it.
 * @example const next = createPetSource({ seed: 7 }); next().name // 'Murphey'
 */
export function createPetSource(options: Pick<GenerateOptions, 'seed' | 'statusMix'>): () => NewPet {
  const faker = new FakerClass({ locale: englishFaker.rawDefinitions, seed: options.seed })
  const categories = CATEGORIES.map(({ id, weight }) => ({ value: id, weight }))
  const mix = options.statusMix ?? DEFAULT_STATUS_MIX
  const statuses = STATUS_MIX_KEYS
    .map((value) => ({ value, weight: mix[value] }))
    .filter(({ weight }) => weight > 0)
  return () => {
    const name = petName(faker)
    const categoryId = faker.helpers.weightedArrayElement(categories)
    const status = faker.helpers.weightedArrayElement(statuses)
    return status === 'none' ? { name, categoryId } : { name, categoryId, status }
  }
}

/**
 * Generates realistic animals, the same ones for the same options on any machine.
 * @example generatePets({ seed: 7, count: 2 }).map((pet) => pet.id) // [1, 2]
 */
export function generatePets(options: GenerateOptions): Pet[] {
  const next = createPetSource(options)
  const pets: Pet[] = []
  let id: Int64 | undefined = options.firstId ?? 1
  for (let i = 0; i < options.count; i++) {
    if (id === undefined) throw new RangeError('generated ids would pass the int64 maximum')
    pets.push({ id, ...next() })
    id = nextInt64(id)
    if ((i + 1) % PROGRESS_STEP === 0) options.onProgress?.(i + 1)
  }
  return pets
}
