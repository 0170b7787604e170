import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest'
import { createFake } from '../../src/create-fake.js'
import { createHandlers } from '../../src/msw/handlers.js'
import { failOnUnhandledRequests } from '../../src/msw/listen-options.js'
import { createApiClient } from '../support/api-client.js'
import { shippedPets } from '../support/fixtures.js'
import { CONFORMANCE_CASES, CONFORMANCE_KEYS } from './cases.js'
import { PREFER_CASES } from './prefer-cases.js'

const pets = shippedPets('default')
const fake = createFake({ pets, keys: CONFORMANCE_KEYS })

// Two bases on one fake: the service's own `/v1`, and a deeper prefix on https, where Location
// and Link must carry `/api/v1`.
const bases = [
  { baseUrl: 'http://animals.test/v1', basePath: '/v1' },
  { baseUrl: 'https://api.example.com/api/v1', basePath: '/api/v1' },
] as const

const server = setupServer(...bases.flatMap(({ baseUrl }) => createHandlers({ baseUrl, fake })))

// { onUnhandledRequest: 'error' } on msw 2, { onUnhandledFrame: 'error' } on msw 3: both set
beforeAll(() => server.listen(failOnUnhandledRequests))
afterAll(() => server.close())
beforeEach(() => fake.reset())

const table = [...CONFORMANCE_CASES, ...PREFER_CASES].map((testCase) => [testCase.name, testCase] as const)

for (const { baseUrl, basePath } of bases) {
  describe(`msw setupServer, Node's fetch intercepted, at ${baseUrl}`, () => {
    it.each(table)('%s', (_name, testCase) => testCase.run({ api: createApiClient(baseUrl), pets, basePath }))
  })
}
