// A backend's tests (NestJS with supertest): the app under test listens on the loopback and its
// own requests must reach it, while any other request no handler takes still fails. Run on msw 2
// here and on msw 3 by `npm run test:node24`.
import { createServer, get, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createFake } from '../../src/create-fake.js'
import { createHandlers } from '../../src/msw/handlers.js'
import { failOnUnhandledRequestsExceptLoopback } from '../../src/msw/listen-options.js'
import { isLoopback } from '../../src/service/loopback.js'

const baseUrl = 'https://animals.example.test/v1'
const server = setupServer(...createHandlers({ baseUrl, fake: createFake() }))
// The app under test: answers every request with its own path.
const app: Server = createServer((request, response) => response.end(`app saw ${request.url}`))
let port = 0

beforeAll(async () => {
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  port = (app.address() as AddressInfo).port
  server.listen(failOnUnhandledRequestsExceptLoopback)
})
afterAll(async () => {
  server.close()
  await new Promise((resolve) => app.close(resolve))
})

it('lets a request to the loopback through to the app, by address and by name, over fetch and node:http (supertest\'s)', async () => {
  for (const host of ['127.0.0.1', 'localhost']) {
    const response = await fetch(`http://${host}:${port}/animals?x=1`)
    expect(await response.text()).toBe('app saw /animals?x=1')
  }
  const text = await new Promise<string>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/animals/7' }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve(body))
    }).on('error', reject)
  })
  expect(text).toBe('app saw /animals/7')
})

it('answers the handlers\' requests from the fake', async () => {
  const response = await fetch(`${baseUrl}/pets?limit=1`, { headers: { authorization: 'Bearer k' } })
  expect(response.status).toBe(200)
  expect(await response.json()).toHaveLength(1)
})

it('fails a request no handler takes that leaves the machine, and never sends it', async () => {
  // A host that cannot be resolved here: had the request been let through, it would fail as a DNS
  // error; refused, it fails as a network error whose cause is msw's answer, Response.error().
  for (const url of ['http://elsewhere.invalid/animals', `http://127.0.0.1.elsewhere.invalid:${port}/animals`]) {
    const failed = await fetch(url).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failed, url).toBeInstanceOf(TypeError)
    expect((failed as TypeError).cause, url).toMatchObject({ type: 'error', status: 0 })
  }
})

it('counts 127.0.0.0/8, localhost and ::1 as the loopback, and nothing else', () => {
  for (const host of ['127.0.0.1', '127.255.255.254', 'localhost', '::1', '[::1]']) expect(isLoopback(host), host).toBe(true)
  for (const host of ['128.0.0.1', '10.0.0.1', 'localhost.example.test', 'example.localhost.test', '[::2]', '0.0.0.0', '1127.0.0.1']) expect(isLoopback(host), host).toBe(false)
})
