import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest'
import { createFake, type Fake } from '../../src/fake.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
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
