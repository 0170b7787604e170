import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createAnimalsClient, isAnimalsApiError } from '../../src/contracts/client.js'
import { createFake, type Fake } from '../../src/fake.js'
import { API_BASE, createSite } from '../../src/core/site.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { shippedPets } from '../support/fixtures.js'

const pets = shippedPets('default')
let fake: Fake
let server: RunningServer
beforeAll(async () => {
  fake = createFake({ pets, keys: ['client-key'] })
  server = await startServer({ app: createSite({ api: fake }) })
})
afterAll(() => server.close())
beforeEach(() => fake.reset())

const client = (apiKey = 'client-key') => createAnimalsClient({ baseUrl: `${server.url}${API_BASE}/`, apiKey })

it('lists, creates and gets animals with the service types', async () => {
  expect(await client().listPets()).toEqual(pets.slice(0, 20))
  expect(await client().listPets({ status: 'sold', limit: 2 })).toEqual(pets.filter((p) => p.status === 'sold').slice(0, 2))
  const created = await client().createPet({ name: 'Pip', categoryId: 3 })
  expect(created).toEqual({ id: pets.length + 1, name: 'Pip', categoryId: 3 })
  const { pet, deprecation } = await client().getPet(created.id)
  expect(pet).toEqual(created)
  expect(deprecation.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  expect(deprecation.deprecation).toMatch(/^@\d+$/)
  expect(deprecation.link).toContain('/v1/pets')
})

it('surfaces error answers as a typed error carrying the Error body', async () => {
  const refused = await client('wrong').listPets().catch((error: unknown) => error)
  expect(isAnimalsApiError(refused)).toBe(true)
  expect(refused).toMatchObject({ status: 401, body: { code: 'unauthorized', status: 401 } })
  const missing = await client().getPet(999).catch((error: unknown) => error)
  expect(missing).toMatchObject({ status: 404, body: { code: 'pet_not_found', status: 404 } })
  expect(isAnimalsApiError(missing) && missing.deprecation.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  const invalid = await client().createPet({ name: 'x' } as never).catch((error: unknown) => error)
  expect(invalid).toMatchObject({ status: 400, body: { code: 'invalid_body' } })
})

it('sends no Authorization at all when no key is given, and the service answers 401', async () => {
  const seen: (string | null)[] = []
  const spy: typeof fetch = (input, init) => {
    seen.push(new Headers(init?.headers).get('authorization'))
    return fetch(input, init)
  }
  const anonymous = createAnimalsClient({ baseUrl: `${server.url}${API_BASE}`, fetch: spy })
  await expect(anonymous.listPets()).rejects.toMatchObject({ status: 401, body: { code: 'unauthorized', status: 401 } })
  expect(seen).toEqual([null])
})
