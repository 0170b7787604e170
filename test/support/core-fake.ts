import { type Fake, type FakeOptions, assembleFake } from '../../src/fake/assemble-fake.js'
import { isDropped, type PlainRequest, type PlainResponse } from '../../src/service/http.js'
import { createPetSource } from '../../src/seed/generate-pets.js'

/** A fake with a manual clock and fixed randomness, for in-process tests of the core. */
export function createTestFake(options: FakeOptions = {}, start = Date.UTC(2026, 0, 1)): Fake & { tick(ms: number): void } {
  let time = start
  const fake = assembleFake(options, {
    now: () => time,
    random: () => 0.5,
    generate: async (generateOptions) => createPetSource(generateOptions),
    pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
  })
  return Object.assign(fake, { tick: (ms: number) => void (time += ms) })
}

/** A plain request with defaults: GET /pets under /v1, no headers. */
export function plainRequest(fields: Partial<PlainRequest>): PlainRequest {
  return { method: 'GET', path: '/pets', basePath: '/v1', search: '', headers: {}, body: undefined, ...fields }
}

/** Asks the fake and returns the response, failing the test on a dropped connection. */
export function respond(fake: Fake, request: PlainRequest): PlainResponse {
  const reply = fake.handle(request)
  if (isDropped(reply)) throw new Error('the connection was dropped')
  return reply
}
