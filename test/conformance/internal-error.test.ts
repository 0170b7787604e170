import { getResponse } from 'msw'
import { expect, it } from 'vitest'
import { createHandlers } from '../../src/msw/handlers.js'
import { startServer } from '../../src/node/server.js'

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
