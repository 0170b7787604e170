// The README's vitest recipe, as written there except for the import paths.
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createFake, DEFAULT_PETS } from '../../src/create-fake.js'
import { createHandlers } from '../../src/msw/handlers.js'
import { failOnUnhandledRequests } from '../../src/msw/listen-options.js'

const baseUrl = 'https://api.example.com/v1'
const fake = createFake() // starts from the embedded default animals
const server = setupServer(...createHandlers({ baseUrl, fake }))

// { onUnhandledRequest: 'error' } on msw 2, { onUnhandledFrame: 'error' } on msw 3: both set
beforeAll(() => server.listen(failOnUnhandledRequests))
afterEach(() => {
  server.resetHandlers()
  fake.reset() // back to the start: the default animals and ids, no forced rule, no latency, an empty journal
})
afterAll(() => server.close())

const headers = { authorization: 'Bearer any-non-empty-key', 'content-type': 'application/json' }

it('adds an animal', async () => {
  const response = await fetch(`${baseUrl}/pets`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Biscuit', categoryId: 3, status: 'available' }),
  })
  expect(response.status).toBe(201)
  expect(await response.json()).toMatchObject({ id: DEFAULT_PETS.length + 1, name: 'Biscuit' })
})

it('starts the next test from the default animals again', async () => {
  const response = await fetch(`${baseUrl}/pets?limit=100`, { headers })
  expect(await response.json()).toEqual(DEFAULT_PETS)
})

it('starts one test from its own animals', async () => {
  const rex = { id: 7, name: 'Rex', categoryId: 1, status: 'sold' } as const
  server.use(...createHandlers({ baseUrl, fake: createFake({ pets: [rex] }) }))
  const response = await fetch(`${baseUrl}/pets?status=sold`, { headers })
  expect(await response.json()).toEqual([rex])
})

it('is back on the shared fake after resetHandlers', async () => {
  const response = await fetch(`${baseUrl}/pets/1`, { headers })
  expect(await response.json()).toEqual(DEFAULT_PETS[0])
})

// docs/frontend.md forces errors and slows answers inside a test; the recipe's reset takes both
// back, so a test that forgets `times` cannot fail every test after it.
it('forces a 503 with no times, and a latency, in one test', async () => {
  fake.force({ status: 503 })
  fake.setLatency({ ms: 20 })
  const response = await fetch(`${baseUrl}/pets`, { headers })
  expect(response.status).toBe(503)
  expect(fake.journal().map((entry) => [entry.status, entry.delayMs])).toEqual([[503, 20]])
})

it('lists plainly in the next test: no rule, no latency, an empty journal', async () => {
  const response = await fetch(`${baseUrl}/pets`, { headers })
  expect(response.status).toBe(200)
  expect(fake.forcedRules()).toEqual([])
  expect(fake.latency).toEqual({})
  expect(fake.journal().map((entry) => [entry.status, entry.delayMs])).toEqual([[200, 0]])
})
