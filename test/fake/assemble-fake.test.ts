import { expect, it } from 'vitest'
import { FakeInputError } from '../../src/service/errors.js'
import { assembleFake } from '../../src/fake/assemble-fake.js'
import type { IdReservation } from '../../src/memory/animals.js'
import { createPetSource } from '../../src/seed/generate-pets.js'
import { createTestFake, plainRequest, respond } from '../support/core-fake.js'
import type { Pet } from '../../src/spec/animals-service.js'

const pets: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1 },
  { id: 2, name: 'Tom', categoryId: 2 },
]
const key = (token: string) => ({ authorization: `Bearer ${token}` })
const inputError = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return error instanceof FakeInputError ? `${error.code}: ${error.message}` : `not a FakeInputError: ${String(error)}`
  }
  return 'no error'
}

it('seeds a whole count of animals, none included, up to exactly the room left', async () => {
  const fake = createTestFake({ pets, maxAnimals: 5 })
  for (const count of [-1, 1.5, Number.NaN]) {
    await expect(fake.seed(count), String(count)).rejects.toThrow(new FakeInputError({ code: 'invalid_body', message: 'The count must be a whole number.' }))
  }
  expect(await fake.seed(0)).toEqual({ added: 0, firstId: null, lastId: null })
  expect(await fake.seed(3)).toEqual({ added: 3, firstId: 3, lastId: 5 })
  await expect(fake.seed(1)).rejects.toMatchObject({ code: 'store_full' })
})

it('seeds with a seed drawn from its randomness when none is given', async () => {
  const drawn = createTestFake({ pets })
  await drawn.seed(3)
  const given = createTestFake({ pets })
  await given.seed(3, { seed: Math.floor(0.5 * 2 ** 32) }) // the test fake's random() is 0.5
  expect(drawn.snapshot()).toEqual(given.snapshot())
})

it('pauses a long seed every 1,000 animals, and stops it when the store cannot take one more', async () => {
  let pauses = 0
  const fake = assembleFake(
    { pets },
    { now: () => 0, random: () => 0.5, generate: async (options) => createPetSource(options), pause: async () => void (pauses += 1) },
  )
  await fake.seed(4_001, { seed: 1 })
  expect(pauses).toBe(4)
  const last = createTestFake({ pets: [{ id: 9223372036854775807n, name: 'last', categoryId: 1 }] })
  await expect(last.seed(1)).rejects.toMatchObject({ code: 'store_full', message: 'No 64-bit ids are left to assign.' })
})

/** An id reservation whose disk refuses to make `refused` durable (it filled up). */
const refusingId = (refused: number): IdReservation => ({
  floor: 1,
  use(id) {
    if (id === refused) throw new Error('ENOSPC')
  },
})

it('reserves a seed\'s ids in one go before handing out the first, and refuses the seed whole when that fails', async () => {
  const used: unknown[] = []
  const fake = createTestFake({ pets, ids: { floor: 1, use: (id) => void used.push(id) } })
  await fake.seed(1003)
  // The seed's last id first; then each step of 1,000 makes sure of its own, already durable.
  expect(used).toEqual([1005, 1002, 1002, 1005, 1005])
  const refusing = createTestFake({ pets, ids: refusingId(5) })
  await expect(refusing.seed(3)).rejects.toThrow(
    new FakeInputError({ code: 'store_full', message: 'The ids of 3 new animals could not be reserved on disk (see the server log), so none was stored.' }),
  )
  expect(refusing.snapshot()).toEqual(pets)
})

it('keeps what a seed stopped part-way added, and says how many and which', async () => {
  // The API creates an animal while the seed pauses: the budget has no room left for its last step.
  let pauses = 0
  const fake = assembleFake(
    { pets, maxAnimals: pets.length + 3000 },
    {
      now: () => 0,
      random: () => 0.5,
      generate: async (options) => createPetSource(options),
      pause: async () => {
        if ((pauses += 1) === 1) respond(fake, plainRequest({ method: 'POST', headers: { ...key('k'), 'content-type': 'application/json' }, body: new TextEncoder().encode('{"name":"Between","categoryId":1}') }))
      },
    },
  )
  await expect(fake.seed(3000)).rejects.toThrow(
    new FakeInputError({
      code: 'store_full',
      message:
        'The seed stopped after 2000 of 3000 animals, which stay stored (ids 3 to 2003); the next was refused: The fake has no room for 1000 more animals: it holds 2003 of at most 3002 animals (--max-animals, every store together).',
    }),
  )
  expect(fake.snapshot()).toHaveLength(2003)
  expect(fake.snapshot().find((pet) => pet.id === 1003)?.name).toBe('Between')
})

it('loads a snapshot given as text, and says why one is not valid', async () => {
  const fake = createTestFake({ pets })
  expect(await fake.loadSnapshot('[{"id": 7, "name": "Kit", "categoryId": 1}]')).toBe(1)
  expect(fake.snapshot()).toEqual([{ id: 7, name: 'Kit', categoryId: 1 }])
  // As UTF-8 bytes, as a request body has it: read as they are, not as their numbers' text.
  expect(await fake.loadSnapshot(new TextEncoder().encode('[{"id": 8, "name": "Kät", "categoryId": 1}]'))).toBe(1)
  expect(fake.snapshot()).toEqual([{ id: 8, name: 'Kät', categoryId: 1 }])
  expect(await fake.loadSnapshot('[{"id": 7, "name": "Kit", "categoryId": 1}]')).toBe(1)
  await expect(fake.loadSnapshot('[1]')).rejects.toMatchObject({ code: 'invalid_body', message: 'The snapshot is not valid: record 1 (index 0): must be a JSON object.' })
  expect(inputError(() => fake.load([{ id: 1 }] as never))).toMatch(/^invalid_body: record 1 \(index 0\): /)
})

it('passes its limits and the id reservation on to the stores', () => {
  const fake = createTestFake({ pets, maxTextChars: 12_345, maxCacheChars: 678, ids: { floor: 100, use() {} } })
  expect(fake.budget.limits).toMatchObject({ maxTextChars: 12_345, maxCacheChars: 678 })
  const created = respond(fake, plainRequest({ method: 'POST', headers: { ...key('k'), 'content-type': 'application/json' }, body: new TextEncoder().encode('{"name":"a","categoryId":1}') }))
  expect(JSON.parse(created.body ?? '').id).toBe(100)
  expect(fake.forLabel('shared')?.store.size).toBe(3)
})

it('keeps the fixture it had when a new one does not fit', () => {
  const fake = createTestFake({ pets, maxAnimals: 2 })
  expect(() => fake.reset([...pets, { id: 3, name: 'Kit', categoryId: 1 }])).toThrow(FakeInputError)
  expect(fake.snapshot()).toEqual(pets)
  expect(respond(fake, plainRequest({ headers: key('k') })).status).toBe(200)
  fake.reset()
  expect(fake.snapshot()).toEqual(pets)
})

it('under isolation, points the shared controls to forKey, and keeps each store\'s journal and rules apart', () => {
  const fake = createTestFake({ pets, isolate: true })
  expect(inputError(() => fake.snapshot())).toBe('invalid_body: Under isolation each key has its own store: use forKey(key).')
  respond(fake, plainRequest({ headers: key('a') }))
  respond(fake, plainRequest({ headers: key('b') }))
  const [a, b] = [fake.forKey('a'), fake.forKey('b')]
  a.force({ status: 503 })
  b.force({ status: 502 })
  a.clearJournal()
  expect(a.journal()).toEqual([])
  expect(b.journal()).toHaveLength(1)
  expect(a.unforce()).toBe(true)
  expect(fake.forcedRules().map((rule) => rule.status)).toEqual([502])
  expect(fake.unforce()).toBe(true)
  expect(fake.forcedRules()).toEqual([])
})

it('says when a labelled store is gone, and stops telling a listener once it unsubscribes', () => {
  const fake = createTestFake({ pets, isolate: true, storeIdleMs: 1000 })
  respond(fake, plainRequest({ headers: key('a') }))
  const label = fake.stores()[0]?.label ?? ''
  const store = fake.forLabel(label)
  // A reset renews every store in place; a store unused for the idle time is dropped.
  fake.reset()
  expect(store?.snapshot()).toEqual(pets)
  fake.tick(1000)
  respond(fake, plainRequest({ headers: key('b') }))
  expect(inputError(() => store?.snapshot())).toBe(`invalid_parameter: No store is labelled ${label} any more.`)
  const heard: string[] = []
  const stopFirst = fake.observe(() => heard.push('first'))
  fake.observe(() => heard.push('second'))
  respond(fake, plainRequest({ headers: key('a') }))
  stopFirst()
  respond(fake, plainRequest({ headers: key('a') }))
  expect(heard).toEqual(['first', 'second', 'second'])
})
