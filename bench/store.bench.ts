/**
 * Why the fake has its own store: lookups and filtered lists at 100k animals in the store the fake
 * uses, in @mswjs/data 0.16 and in its successor @msw/data 1.x. Run with `npm run bench:store`.
 */
import { Collection } from '@msw/data'
import { factory, primaryKey } from '@mswjs/data'
import { bench, describe } from 'vitest'
import { createStore } from '../test/support/memory-animals.js'
import { generatePets } from '../src/seed/generate-pets.js'
import type { Pet } from '../src/spec/animals-service.js'

const COUNT = 100_000
const pets = generatePets({ seed: 1, count: COUNT })
const lastId = COUNT - 7

const store = createStore({ initial: pets })

const legacy = factory({
  pet: { id: primaryKey(Number), name: String, categoryId: Number, status: String },
})
for (const pet of pets) legacy.pet.create({ id: Number(pet.id), name: pet.name, categoryId: Number(pet.categoryId), status: pet.status ?? '' })

// @msw/data validates through any Standard Schema; this one accepts every record as it is.
const passThrough = {
  '~standard': { version: 1, vendor: 'bench', validate: (value: unknown) => ({ value: value as Pet }) },
} as const
const collection = new Collection({ schema: passThrough })
await collection.createMany(COUNT, (index) => pets[index] as Pet)

describe(`get by id, ${COUNT} animals`, () => {
  bench('animals-mock store', () => {
    store.get(lastId)
  })
  bench('@msw/data 1.x findFirst', () => {
    collection.findFirst((q) => q.where({ id: lastId } as never))
  })
  bench('@mswjs/data 0.16 findFirst', () => {
    legacy.pet.findFirst({ where: { id: { equals: lastId } } } as never)
  })
})

describe(`first 100 sold, ${COUNT} animals`, () => {
  bench('animals-mock store', () => {
    store.list(100, 'sold')
  })
  bench('@msw/data 1.x findMany take 100', () => {
    collection.findMany((q) => q.where({ status: 'sold' } as never), { take: 100 })
  })
  bench('@mswjs/data 0.16 findMany take 100', () => {
    legacy.pet.findMany({ where: { status: { equals: 'sold' } }, take: 100 } as never)
  })
})
