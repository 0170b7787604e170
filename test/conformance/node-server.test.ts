import { getResponse } from 'msw'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createFake, type Fake } from '../../src/create-fake.js'
import { createHandlers } from '../../src/msw/handlers.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createApiClient } from '../support/api-client.js'
import { shippedPets } from '../support/fixtures.js'
import { CONFORMANCE_CASES, CONFORMANCE_KEYS } from './cases.js'
import { PREFER_CASES } from './prefer-cases.js'

const pets = shippedPets('default')
let fake: Fake
let server: RunningServer

beforeAll(async () => {
  fake = createFake({ pets, keys: CONFORMANCE_KEYS })
  server = await startServer({ app: createSite({ api: fake }) })
})
afterAll(() => server.close())
beforeEach(() => fake.reset())

describe('the standalone server, over real HTTP', () => {
  it.each([...CONFORMANCE_CASES, ...PREFER_CASES].map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) =>
    testCase.run({ api: createApiClient(`${server.url}${API_BASE}`), pets, basePath: API_BASE }),
  )
})

// A bug in the fake is answered alike by both transports: the spec's Error body, status 500, saying so.
const BUG = { code: 'internal_error', message: 'The fake failed unexpectedly; this is a bug.', status: 500 }

it('answers a bug in the fake with the same 500 Error body over HTTP and through msw', async () => {
  const failing = { handle: (): never => { throw new Error('a bug') } }
  const server = await startServer({ app: failing, onError: () => undefined })
  try {
    const response = await fetch(`${server.url}/v1/pets`)
    expect([response.status, response.headers.get('content-type'), await response.json()]).toEqual([500, 'application/json', BUG])
  } finally {
    await server.close()
  }
  const handlers = createHandlers({ baseUrl: 'http://animals.test/v1', fake: failing, onError: () => undefined })
  const mocked = await getResponse(handlers, new Request('http://animals.test/v1/pets'))
  expect([mocked?.status, mocked?.headers.get('content-type'), await mocked?.json()]).toEqual([500, 'application/json', BUG])
})
