import { coreOf } from '../../src/fake/assemble-fake.js'
import { connect } from 'node:net'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { CONTROL_BASE, CONTROL_BODY_LIMITS, createControl, snapshotBodyLimit } from '../../src/fake/control.js'
import { MAX_FORCED_RULES } from '../../src/store/scope.js'
import { MAX_NAME_LENGTH } from '../../src/service/pets.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createFake, type Fake, type FakeOptions } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createApiClient, createControlClient, TEST_KEY } from '../support/api-client.js'
import { expectError } from '../support/expectations.js'

const servers: RunningServer[] = []
afterAll(() => Promise.all(servers.map((each) => each.close())))

async function serve(options: FakeOptions = {}, token?: string): Promise<{ fake: Fake; server: RunningServer }> {
  const fake = createFake({ keys: [TEST_KEY], ...options })
  const control = createControl({ core: coreOf(fake), ...(token === undefined ? {} : { token }) })
  const server = await startServer({ app: createSite({ api: fake, control }) })
  servers.push(server)
  return { fake, server }
}

let fake: Fake
let server: RunningServer
beforeAll(async () => {
  ;({ fake, server } = await serve())
})
afterEach(() => {
  fake.reset()
  fake.unforce()
})

const api = () => createApiClient(`${server.url}${API_BASE}`)
const control = () => createControlClient(`${server.url}${CONTROL_BASE}`, TEST_KEY)

/**
 * Sends only a request's head, then reads what comes back within `waitMs` without sending a byte
 * of the body: what a server answers before reading the body.
 */
function headOnly(origin: string, head: string, waitMs = 1000): Promise<string> {
  const { port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head))
    let received = ''
    const done = (): void => {
      socket.destroy()
      resolve(received)
    }
    const timer = setTimeout(done, waitMs)
    socket.setEncoding('utf8').on('data', (text: string) => {
      received += text
      if (received.includes('}')) {
        clearTimeout(timer)
        done()
      }
    })
    socket.on('error', reject)
  })
}

const head = (method: string, path: string, length: number, extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`

it('refuses a body whose Content-Length passes the endpoint\'s cap before reading a byte of it', async () => {
  const snapshotCap = snapshotBodyLimit(fake.budget.limits.maxAnimals, fake.budget.limits.maxTextChars)
  for (const [method, path, cap] of [
    ['PUT', '/__control/snapshot', snapshotCap],
    ['POST', '/__control/forced', CONTROL_BODY_LIMITS.rule],
    ['PUT', '/__control/latency', CONTROL_BODY_LIMITS.small],
    ['POST', '/__control/seed', CONTROL_BODY_LIMITS.small],
    ['POST', '/v1/pets', 1024 * 1024],
  ] as const) {
    const answer = await headOnly(server.url, head(method, path, cap + 1))
    expect(answer, path).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer).toContain('"code":"payload_too_large"')
  }
  expect(snapshotCap).toBe(256 * 1024 * 1024)
})

it('checks the control token, the path and the method before reading a body', async () => {
  const guarded = await serve({}, 'ctl-token-2b7')
  const noToken = await headOnly(guarded.server.url, head('PUT', '/__control/snapshot', 100 * 1024 * 1024))
  expect(noToken).toMatch(/^HTTP\/1\.1 401 /)
  const withToken = (method: string, path: string) => headOnly(guarded.server.url, head(method, path, 5000, 'X-Control-Token: ctl-token-2b7\r\n'))
  expect(await withToken('POST', '/__control/nothing')).toMatch(/^HTTP\/1\.1 404 /)
  expect(await withToken('PATCH', '/__control/forced')).toMatch(/^HTTP\/1\.1 405 /)
  // A request it would take waits for its body: nothing comes back yet.
  expect(await withToken('POST', '/__control/forced')).toBe('')
})

it('refuses a snapshot that is not animals at its first element, without parsing the rest', async () => {
  const numbers = `[${'1,'.repeat(5_000_000)}1]`
  const started = performance.now()
  const answer = await control().call('/snapshot', { method: 'PUT', body: numbers })
  expectError(answer, 400, 'invalid_body', 'record 1 (index 0): must be a JSON object')
  expect(performance.now() - started).toBeLessThan(5000)
  const nested = await control().call('/snapshot', { method: 'PUT', body: `[{"id":1,"name":"a","categoryId":1,"x":${'['.repeat(9000)}` })
  expectError(nested, 400, 'invalid_body', 'nested more than 8 deep')
  expect((await api().authed('/pets')).status).toBe(200)
})

it('refuses a forced rule body past 16 KiB, nested brackets included, and answers after', async () => {
  expectError(await control().call('/forced', { method: 'POST', body: '['.repeat(CONTROL_BODY_LIMITS.rule + 1) }), 413, 'payload_too_large')
  expectError(await control().call('/forced', { method: 'POST', body: '['.repeat(CONTROL_BODY_LIMITS.rule) }), 400, 'malformed_json')
  expect((await api().authed('/pets')).status).toBe(200)
})

it('caps forced rules at 1,000, exactly: the 1,001st is refused with 507', async () => {
  for (let i = 0; i < MAX_FORCED_RULES - 1; i++) fake.force({ path: `/nowhere/${i}`, status: 503 })
  expect((await control().call('/forced', { method: 'POST', body: { path: '/last', status: 503 } })).status).toBe(201)
  expectError(await control().call('/forced', { method: 'POST', body: { path: '/one-more', status: 503 } }), 507, 'rules_full', '1000')
  expect(fake.forcedRules()).toHaveLength(MAX_FORCED_RULES)
})

it('stores names of up to 4,096 characters, and refuses a longer one with 400', async () => {
  const at = await api().authed('/pets', { method: 'POST', body: { name: 'n'.repeat(MAX_NAME_LENGTH), categoryId: 1 } })
  expect(at.status).toBe(201)
  expectError(await api().authed('/pets', { method: 'POST', body: { name: 'n'.repeat(MAX_NAME_LENGTH + 1), categoryId: 1 } }), 400, 'invalid_body', '4096')
})

it('keeps cached list answers within the cache budget, however many long lists are asked for', async () => {
  const small = await serve({ pets: [], maxCacheChars: 200_000 })
  const client = createApiClient(`${small.server.url}${API_BASE}`)
  for (let i = 0; i < 100; i++) await client.authed('/pets', { method: 'POST', body: { name: 'x'.repeat(MAX_NAME_LENGTH), categoryId: 1, status: 'sold' } })
  for (let limit = 1; limit <= 100; limit++) {
    for (const status of ['', '&status=sold']) expect((await client.authed('/pets', { query: `limit=${limit}${status}` })).status).toBe(200)
  }
  expect(small.fake.budget.used.cacheChars).toBeGreaterThan(0)
  expect(small.fake.budget.used.cacheChars).toBeLessThanOrEqual(200_000)
})

it('under --isolate, holds one animal budget for every store together, 507 past it, and drops stores left idle', async () => {
  const isolated = await serve({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }], keys: [], isolate: true, maxAnimals: 10, storeIdleMs: 300 })
  const as = (key: string) => createApiClient(`${isolated.server.url}${API_BASE}`, key)
  for (let i = 0; i < 7; i++) expect((await as('job-a').authed('/pets', { method: 'POST', body: { name: `a${i}`, categoryId: 1 } })).status).toBe(201)
  expect((await as('job-b').authed('/pets')).status).toBe(200) // a second store: 1 animal, 9 in all
  expect((await as('job-b').authed('/pets', { method: 'POST', body: { name: 'b', categoryId: 1 } })).status).toBe(201)
  expectError(await as('job-b').authed('/pets', { method: 'POST', body: { name: 'c', categoryId: 1 } }), 507, 'store_full', 'every store together')
  expectError(await as('job-c').authed('/pets'), 507, 'store_full')
  expect(isolated.fake.budget.used.animals).toBe(10)
  // Unused for longer than the idle time, job-a's store goes: a new job gets in.
  await new Promise((resolve) => setTimeout(resolve, 400))
  expect((await as('job-c').authed('/pets')).status).toBe(200)
  expect(isolated.fake.stores().map((store) => store.label)).not.toContain('tenant-1')
})
