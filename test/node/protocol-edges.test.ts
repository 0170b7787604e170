import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Fake } from '../../src/create-fake.js'
import type { RunningServer } from '../../src/node/server.js'
import { API_BASE } from '../../src/site/site.js'
import { TEST_KEY } from '../support/api-client.js'
import { rawRequest } from '../support/raw-http.js'
import { serveFake } from '../support/served-fake.js'

let fake: Fake
let server: RunningServer
beforeAll(async () => ({ fake, server } = await serveFake()))
afterAll(() => server.close())

const FIVE_MIB = 5 * 1024 * 1024

it('answers a 5 MiB POST 413 so that every client reads it: 20 tries through fetch, no reset', async () => {
  const body = JSON.stringify({ name: 'x'.repeat(FIVE_MIB), categoryId: 1 })
  const statuses: (number | string)[] = []
  for (let i = 0; i < 20; i++) {
    const answer = await fetch(`${server.url}${API_BASE}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body,
    }).then(
      async (response) => `${response.status} ${((await response.json()) as { code: string }).code}`,
      (error: unknown) => `failed: ${(error as Error).cause ?? (error as Error).message}`,
    )
    statuses.push(answer)
  }
  expect(statuses).toEqual(Array.from({ length: 20 }, () => '413 payload_too_large'))
  expect(fake.store.size).toBe(fake.snapshot().length)
})

it('lets a client that keeps writing its body read the 413, then closes at the end of its body', async () => {
  const { port } = new URL(server.url)
  const received = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1')
    let text = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
    socket.on('error', (error) => reject(new Error(`${error.message} after reading: ${text.slice(0, 40)}`)))
    socket.on('close', () => resolve(text))
    socket.write(`POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${FIVE_MIB}\r\n\r\n`)
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let sent = 0
    const pump = (): void => {
      while (sent < FIVE_MIB) {
        sent += chunk.length
        if (!socket.write(chunk)) {
          socket.once('drain', pump)
          return
        }
      }
      socket.end()
    }
    pump()
  })
  expect(received).toMatch(/^HTTP\/1\.1 413 /)
  expect(received).toContain('"status":413')
})

it('redacts every header whose name says it carries a credential, listed or not', async () => {
  fake.clearJournal()
  const secrets = {
    'x-auth-token': 'LEAK-auth-token',
    'api-key': 'LEAK-api-key',
    'x-access-token': 'LEAK-access-token',
    'x-amz-security-token': 'LEAK-amz',
    'x-session-id': 'LEAK-session',
    'x-signature': 'LEAK-signature',
    'x-client-secret': 'LEAK-secret',
    'x-db-password': 'LEAK-password',
    'x-credential': 'LEAK-credential',
  }
  await fetch(`${server.url}${API_BASE}/pets?limit=1&session_id=LEAK-query&credential=LEAK-q2`, { headers: { authorization: `Bearer ${TEST_KEY}`, ...secrets, 'x-request-id': 'kept-1' } })
  const [entry] = fake.journal()
  const text = JSON.stringify(entry)
  expect(text).not.toContain('LEAK')
  for (const name of Object.keys(secrets)) expect(entry?.headers[name], name).toBe('[redacted]')
  expect(entry?.headers['x-request-id']).toBe('kept-1')
})

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
