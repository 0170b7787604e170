// The app's own tests against the fake; two lines (marked) record them as a Pact contract.
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createFake, createHandlers, failOnUnhandledRequests } from 'animals-mock/msw'
import { writePacts } from 'animals-mock/node'
import { AnimalsError, createAnimalsApi } from './animals.js'

const baseUrl = 'https://api.example.com/v1'
const fake = createFake()
const server = setupServer(
  ...createHandlers({ baseUrl, fake, recordPact: { consumer: 'shop-frontend', dir: process.env.PACT_DIR ?? 'pacts' } }), // (1)
)
const api = createAnimalsApi(baseUrl, 'any-key')

beforeAll(() => server.listen(failOnUnhandledRequests))
afterEach(() => fake.reset())
afterAll(async () => {
  server.close()
  await writePacts() // (2)
})

it('shows the animals for sale, at most 10', async () => {
  const animals = await api.forSale()
  expect(animals.length).toBeGreaterThan(0)
  expect(animals.length).toBeLessThanOrEqual(10)
  expect(animals.every((animal) => animal.status === 'available')).toBe(true)
})

it('shows the first page of every animal', async () => {
  expect(await api.firstPage()).toHaveLength(20)
})

it('adds an animal and finds it again', async () => {
  const added = await api.add('Biscuit', 3)
  expect(added).toMatchObject({ name: 'Biscuit', categoryId: 3, status: 'available' })
  expect(await api.find(added.id)).toEqual(added)
})

it('finds nothing for an id no animal has', async () => {
  expect(await api.find(999_999)).toBeUndefined()
})

it('says why an animal without a name is refused', async () => {
  const refused = await api.add('', 3).then(
    () => undefined,
    (error: unknown) => error,
  )
  // An empty name is allowed by the spec: the fake stores it. A missing categoryId is not.
  expect(refused).toBeUndefined()
  await expect(fetch(`${baseUrl}/pets`, { method: 'POST', headers: { authorization: 'Bearer any-key', 'content-type': 'application/json' }, body: '{"name":"Rex"}' })).resolves.toHaveProperty('status', 400)
})

it('shows the sign-in page when the key is refused', async () => {
  const refused = await createAnimalsApi(baseUrl, '')
    .firstPage()
    .catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(AnimalsError)
  expect((refused as AnimalsError).status).toBe(401)
})

it('shows the outage banner when the service is down (Prefer: not recorded)', async () => {
  const response = await fetch(`${baseUrl}/pets`, { headers: { authorization: 'Bearer any-key', prefer: 'code=503' } })
  expect(response.status).toBe(503)
})
