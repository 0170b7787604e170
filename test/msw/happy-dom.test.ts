// @vitest-environment happy-dom
// happy-dom's Headers keep each name as it was set (`Authorization`), where the Fetch standard
// lower-cases them: component tests run here, with clients that send `Authorization`.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createFake, DEFAULT_PETS } from '../../src/create-fake.js'
import { createHandlers } from '../../src/msw/handlers.js'
import { failOnUnhandledRequests } from '../../src/msw/listen-options.js'

const baseUrl = 'https://api.example.com/v1'
const fake = createFake({ keys: ['happy-key'] })
const server = setupServer(...createHandlers({ baseUrl, fake }))

beforeAll(() => server.listen(failOnUnhandledRequests))
afterAll(() => server.close())

it('runs under happy-dom, whose Headers keep the case names were given', () => {
  expect(navigator.userAgent).toContain('HappyDOM')
  expect([...new Headers({ Authorization: 'Bearer x' }).keys()]).toEqual(['Authorization'])
})

it('reads a capitalised Authorization: 200, not 401', async () => {
  const response = await fetch(`${baseUrl}/pets?limit=3`, { headers: { Authorization: 'Bearer happy-key' } })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual(DEFAULT_PETS.slice(0, 3))
})

it('reads a capitalised Content-Type: the animal is created', async () => {
  const response = await fetch(`${baseUrl}/pets`, {
    method: 'POST',
    headers: { Authorization: 'Bearer happy-key', 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Happy', categoryId: 2 }),
  })
  expect(response.status).toBe(201)
  expect(await response.json()).toMatchObject({ name: 'Happy', categoryId: 2 })
})
