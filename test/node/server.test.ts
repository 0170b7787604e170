import { Validator } from '@seriousme/openapi-schema-validator'
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readOpenApiText } from '../../src/contracts/openapi.js'
import { createFake, type Fake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createPages } from '../../src/site/pages.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createApiClient, TEST_KEY } from '../support/api-client.js'
import { expectError } from '../support/expectations.js'
import { shippedPets } from '../support/fixtures.js'
import { rawRequest } from '../support/raw-http.js'

let fake: Fake
let server: RunningServer

beforeAll(async () => {
  fake = createFake({ pets: shippedPets('default'), keys: [TEST_KEY] })
  server = await startServer({ app: createSite({ api: fake, pages: createPages() }) })
})
afterAll(() => server.close())

const site = () => createApiClient(server.url)

it('answers 401 when two Authorization headers are sent, as fetch-based transports do', async () => {
  const result = await rawRequest(
    server.url,
    `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nAuthorization: Bearer other\r\nConnection: close\r\n\r\n`,
  )
  expect(result.status).toBe(401)
  expect(JSON.parse(result.body)).toMatchObject({ code: 'unauthorized', status: 401 })
})

it('answers broken HTTP with a 400 Error body instead of a bare status line', async () => {
  const result = await rawRequest(server.url, 'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n')
  expect(result.status).toBe(400)
  const [statusLine, ...fields] = result.head.split('\r\n')
  expect(statusLine).toBe('HTTP/1.1 400 Bad Request')
  expect(Object.fromEntries(fields.map((field) => field.split(': ')))).toEqual({
    'content-type': 'application/json',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'Location, Deprecation, Sunset, Link, Allow, WWW-Authenticate',
    'content-length': String(Buffer.byteLength(result.body)),
    connection: 'close',
  })
  expect(JSON.parse(result.body)).toEqual({ code: 'bad_request', message: 'The request is not valid HTTP/1.1.', status: 400 })
})

it('stops reading a body past 1 MiB, answers 413 and keeps serving', async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${server.url}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    })
    req.on('response', (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    // 8 MiB in chunks, far more than the server will buffer.
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let sent = 0
    const pump = (): void => {
      while (sent < 128) {
        sent++
        if (!req.write(chunk)) {
          req.once('drain', pump)
          return
        }
      }
      req.end()
    }
    pump()
  })
  expect(status).toBe(413)
  expect((await createApiClient(`${server.url}${API_BASE}`).authed('/pets')).status).toBe(200)
})

it('answers a request whose handler throws with a 500 Error body, and goes on serving', async () => {
  let calls = 0
  const failing = await startServer({
    app: {
      handle: () => {
        calls++
        throw new Error('boom')
      },
    },
    onError: () => {},
  })
  try {
    const client = createApiClient(failing.url)
    expectError(await client.call('/v1/pets'), 500, 'internal_error')
    expectError(await client.call('/v1/pets'), 500, 'internal_error')
    expect(calls).toBe(2)
  } finally {
    await failing.close()
  }
})

it('serves the contract at /openapi.yaml and /openapi.json, outside /v1 and without a key', async () => {
  const yamlDoc = await site().call('/openapi.yaml')
  expect(yamlDoc.status).toBe(200)
  expect(yamlDoc.headers.get('content-type')).toContain('application/yaml')
  expect(yamlDoc.text).toBe(readOpenApiText())
  const jsonDoc = await site().call('/openapi.json')
  expect(jsonDoc.status).toBe(200)
  expect(jsonDoc.headers.get('content-type')).toContain('application/json')
  const validation = await new Validator().validate(jsonDoc.json as Parameters<Validator["validate"]>[0])
  expect(validation.errors ?? []).toEqual([])
  expect(validation.valid).toBe(true)
})

it('answers a JSON 404 outside /v1 and a 405 for a method a document does not take', async () => {
  expectError(await site().call('/nothing-here'), 404, 'route_not_found')
  // The bare base belongs to the API: the key first, then 404.
  expectError(await site().call('/v1'), 401, 'unauthorized')
  expectError(await createApiClient(server.url).authed('/v1'), 404, 'route_not_found')
  const posted = await site().call('/openapi.yaml', { method: 'POST', body: '{}' })
  expectError(posted, 405, 'method_not_allowed')
  expect(posted.headers.get('allow')).toBe('GET, HEAD')
})

it('answers the health check without a key', async () => {
  const health = await site().call('/healthz')
  expect(health.status).toBe(200)
  expect(health.json).toEqual({ status: 'ok' })
})

it('keeps a keep-alive connection open across requests', async () => {
  const { Agent } = await import('node:http')
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const ports = new Set<number>()
  for (let i = 0; i < 5; i++) {
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${server.url}/v1/pets`, { agent, headers: { authorization: `Bearer ${TEST_KEY}` } })
      req.on('response', (res) => {
        ports.add(req.socket?.localPort ?? -1)
        res.resume()
        res.on('end', resolve)
      })
      req.on('error', reject)
      req.end()
    })
  }
  agent.destroy()
  expect(ports.size).toBe(1)
})

it('answers an HTTP/1.1 request with no Host, or two, 400 with the Error body (RFC 9112); HTTP/1.0 needs none', async () => {
  for (const hosts of ['', 'Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n', 'Host: 127.0.0.1\r\nhost: localhost\r\n']) {
    const result = await rawRequest(server.url, `GET /v1/pets HTTP/1.1\r\n${hosts}Authorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`)
    expect(result.status, hosts).toBe(400)
    expect(JSON.parse(result.body)).toMatchObject({ code: 'bad_request', status: 400 })
  }
  const old = await rawRequest(server.url, `GET /v1/pets HTTP/1.0\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`)
  expect(old.status).toBe(200)
  const one = await rawRequest(server.url, `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`)
  expect(one.status).toBe(200)
})

// An app may work its answer out over time (the control API's snapshots and seeds do). A bug that
// rejects that work must still answer the client, as a thrown one does (server.test.ts), and not
// leave it waiting for an answer that never comes.
it('answers a request whose asynchronous answer fails with a 500 Error body, reports the failure once, and goes on serving', async () => {
  const failures: Error[] = []
  const errors: unknown[] = []
  const failing = await startServer({
    app: {
      handle: async (request) => {
        if (request.path === '/ok') return { status: 204, headers: {} }
        const failure = new Error(`boom ${failures.length}`)
        failures.push(failure)
        throw failure
      },
    },
    onError: (error) => errors.push(error),
  })
  try {
    const client = createApiClient(failing.url)
    expectError(await client.call('/v1/pets'), 500, 'internal_error')
    expectError(await client.call('/v1/pets', { method: 'POST', body: { name: 'Rex' } }), 500, 'internal_error')
    expect(errors).toEqual(failures)
    expect(errors).toHaveLength(2)
    expect((await client.call('/ok')).status).toBe(204)
  } finally {
    await failing.close()
  }
})
