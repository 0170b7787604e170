import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from '../../src/node/server.js'
import { TEST_KEY } from '../support/api-client.js'
import { serveFake } from '../support/served-fake.js'
import { rawRequest } from '../support/raw-http.js'

let server: RunningServer
beforeAll(async () => ({ server } = await serveFake()))
afterAll(() => server.close())

it('says in the Error body why an HTTP/1.1 request without exactly one Host is refused', async () => {
  for (const hosts of ['', 'Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n']) {
    const refused = await rawRequest(server.url, `GET /v1/pets HTTP/1.1\r\n${hosts}Authorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`)
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.body)).toEqual({
      code: 'bad_request',
      status: 400,
      message: 'An HTTP/1.1 request needs exactly one Host header (RFC 9112).',
    })
  }
})
