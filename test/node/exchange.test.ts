import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSite } from '../../src/core/site.js'
import { createFake, type Fake } from '../../src/fake.js'
import { createPages } from '../../src/node/pages.js'
import { type Exchange, type RunningServer, startServer } from '../../src/node/server.js'
import { createApiClient, TEST_KEY } from '../support/api-client.js'

let fake: Fake
let server: RunningServer
const exchanges: Exchange[] = []

beforeAll(async () => {
  fake = createFake({ keys: [TEST_KEY] })
  server = await startServer({ app: createSite({ api: fake, pages: createPages() }), onExchange: (exchange) => exchanges.push(exchange) })
})
afterAll(() => server.close())

/** Waits until the server has reported `count` exchanges: it reports once each answer is over. */
async function reported(count: number): Promise<Exchange[]> {
  while (exchanges.length < count) await new Promise((resolve) => setTimeout(resolve, 5))
  return exchanges.splice(0)
}

it('reports each request once it is over: method, path without query, status and duration', async () => {
  const api = createApiClient(`${server.url}/v1`)
  await api.authed('/pets', { query: 'limit=2&token=secret-in-query' })
  await api.authed('/pets', { method: 'POST', body: { name: 'Logged', categoryId: 1 } })
  await api.call('/pets/1')
  await createApiClient(server.url).call('/openapi.json')
  const seen = await reported(4)
  expect(seen.map(({ method, path, status }) => [method, path, status])).toEqual([
    ['GET', '/v1/pets', 200],
    ['POST', '/v1/pets', 201],
    ['GET', '/v1/pets/1', 401],
    ['GET', '/openapi.json', 200],
  ])
  for (const exchange of seen) expect(exchange.durationMs).toBeGreaterThanOrEqual(0)
  expect(JSON.stringify(seen)).not.toContain('secret-in-query')
})

it('reports a dropped connection with no status', async () => {
  fake.force({ method: 'GET', path: '/pets', drop: true, times: 1 })
  await expect(createApiClient(`${server.url}/v1`).authed('/pets')).rejects.toThrow()
  const [dropped] = await reported(1)
  expect(dropped).toMatchObject({ method: 'GET', path: '/v1/pets', status: null })
})
