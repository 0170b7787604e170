import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSite } from '../../src/site/site.js'
import { createFake } from '../../src/fake.js'
import { createHandlers } from '../../src/msw/handlers.js'
import { createPages } from '../../src/site/pages.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createApiClient } from '../support/api-client.js'
import type { Pet } from '../../src/spec/animals-service.js'

const fake = createFake()
const mswApi = createApiClient('http://animals.test/v1')
const msw = setupServer(...createHandlers({ baseUrl: 'http://animals.test/v1', fake }))
let server: RunningServer

beforeAll(async () => {
  server = await startServer({ app: createSite({ api: fake, pages: createPages() }) })
  // The standalone server is on loopback: let those requests through, refuse anything else.
  // msw 2 asks onUnhandledRequest; msw 3 asks onUnhandledFrame with the request in its frame.
  const listen = {
    onUnhandledRequest(request: Request, print: { error(): void }) {
      if (new URL(request.url).origin !== server.url) print.error()
    },
    onUnhandledFrame({ frame, defaults }: { frame: { data: { request: Request } }; defaults: { error(): void } }) {
      if (new URL(frame.data.request.url).origin !== server.url) defaults.error()
    },
  }
  msw.listen(listen)
})
afterAll(async () => {
  msw.close()
  await server.close()
})

it('shows an animal created through msw on the standalone server, and the other way round', async () => {
  const serverApi = createApiClient(`${server.url}/v1`)
  const viaMsw = (await mswApi.authed('/pets', { method: 'POST', body: { name: 'Through msw', categoryId: 1 } })).json as Pet
  const viaServer = (await serverApi.authed('/pets', { method: 'POST', body: { name: 'Over HTTP', categoryId: 2 } })).json as Pet
  expect(viaServer.id).toBe(Number(viaMsw.id) + 1)
  expect((await serverApi.authed(`/pets/${viaMsw.id}`)).json).toEqual(viaMsw)
  expect((await mswApi.authed(`/pets/${viaServer.id}`)).json).toEqual(viaServer)
  fake.reset()
  expect((await serverApi.authed(`/pets/${viaMsw.id}`)).status).toBe(404)
  expect((await mswApi.authed(`/pets/${viaServer.id}`)).status).toBe(404)
})
