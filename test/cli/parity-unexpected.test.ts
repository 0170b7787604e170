import { afterAll, beforeAll, expect, it } from 'vitest'
import { parity } from '../../src/cli/parity.js'
import { isDropped } from '../../src/service/http.js'
import { createSite } from '../../src/site/site.js'
import { createFake } from '../../src/fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { runInProcess } from '../support/in-process.js'

const KEY = 'parity-unexpected-key'

// A deployment whose new animals get an id no URL can hold: a string of one lone UTF-16
// surrogate, which encodeURIComponent refuses when parity asks for the animal back.
let broken: RunningServer
beforeAll(async () => {
  const site = createSite({ api: createFake({ keys: [KEY] }) })
  broken = await startServer({
    app: {
      async handle(request) {
        const reply = await site.handle(request)
        if (isDropped(reply) || request.method !== 'POST' || reply.status !== 201 || typeof reply.body !== 'string') return reply
        return { ...reply, body: reply.body.replace(/"id":\d+/, '"id":"\\ud800"') }
      },
    },
  })
})
afterAll(() => broken.close())

// What the line says after the command is the failure's own message ("URI malformed" today).
it('ends a run it cannot go on with in one line that names the command', async () => {
  const outcome = await runInProcess(() => parity(['--base-url', `${broken.url}/v1`], { ANIMALS_MOCK_VERIFY_KEY: KEY }))
  expect(outcome.code).toBeUndefined()
  expect(outcome.refused).toMatch(/^parity could not run: [^\n]+$/)
})
