import { once } from 'node:events'
import { request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFake, type Fake } from '../../src/create-fake.js'
import { type Exchange, type RunningServer, startServer } from '../../src/node/server.js'
import { constantFields, type Handler, isConstantFields, type Reply } from '../../src/service/http.js'
import { createPages } from '../../src/site/pages.js'
import { createSite } from '../../src/site/site.js'
import { createApiClient, TEST_KEY } from '../support/api-client.js'

let fake: Fake
let server: RunningServer
const exchanges: Exchange[] = []

beforeAll(async () => {
  fake = createFake({ keys: [TEST_KEY] })
  server = await startServer({ app: createSite({ api: fake, pages: createPages() }), onExchange: (exchange) => exchanges.push(exchange) })
})
afterAll(() => server.close())

/** Waits until the server has reported `count` exchanges: it reports once each answer is over. */
async function reported(count: number): Promise<Exchange[]> {
  while (exchanges.length < count) await new Promise((resolve) => setTimeout(resolve, 5))
  return exchanges.splice(0)
}

it('reports each request once it is over: method, path without query, status and duration', async () => {
  const api = createApiClient(`${server.url}/v1`)
  await api.authed('/pets', { query: 'limit=2&token=secret-in-query' })
  await api.authed('/pets', { method: 'POST', body: { name: 'Logged', categoryId: 1 } })
  await api.call('/pets/1')
  await createApiClient(server.url).call('/openapi.json')
  fake.force({ method: 'GET', path: '/pets/2', delayMs: 150, times: 1 })
  await api.authed('/pets/2')
  const seen = await reported(5)
  expect(seen.map(({ method, path, status }) => [method, path, status])).toEqual([
    ['GET', '/v1/pets', 200],
    ['POST', '/v1/pets', 201],
    ['GET', '/v1/pets/1', 401],
    ['GET', '/openapi.json', 200],
    ['GET', '/v1/pets/2', 200],
  ])
  // The duration runs from arrival to the end of the answer: a held-back answer shows its delay.
  const delayed = seen[4]?.durationMs ?? 0
  expect(delayed).toBeGreaterThanOrEqual(145)
  expect(delayed).toBeLessThan(5000)
  expect(JSON.stringify(seen)).not.toContain('secret-in-query')
})

it('reports a dropped connection with no status', async () => {
  fake.force({ method: 'GET', path: '/pets', drop: true, times: 1 })
  await expect(createApiClient(`${server.url}/v1`).authed('/pets')).rejects.toThrow()
  const [dropped] = await reported(1)
  expect(dropped).toMatchObject({ method: 'GET', path: '/v1/pets', status: null })
})

// Lists and found animals go out as bytes encoded once per body (see encodedAnswer in exchange.ts):
// each answer must still carry its own body with its length in bytes, and a changed store a new body.
it('answers repeated and changed bodies with their own bytes and lengths, names outside ASCII included', async () => {
  const get = async (path: string): Promise<{ length: string | null; text: string }> => {
    const response = await fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${TEST_KEY}` } })
    const text = await response.text()
    return { length: response.headers.get('content-length'), text }
  }
  const before = await get('/pets?limit=100')
  expect(await get('/pets?limit=100')).toEqual(before)
  const created = await fetch(`${server.url}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Renée 🐕 Ünal', categoryId: 2 }),
  })
  const createdText = await created.text()
  expect(created.headers.get('content-length')).toBe(String(Buffer.byteLength(createdText)))
  const { id } = JSON.parse(createdText) as { id: number }
  for (let i = 0; i < 2; i++) {
    const found = await get(`/pets/${id}`)
    expect(JSON.parse(found.text)).toMatchObject({ id, name: 'Renée 🐕 Ünal' })
    expect(found.length).toBe(String(Buffer.byteLength(found.text)))
    const after = await get('/pets?limit=100')
    expect(after.text).not.toBe(before.text)
    expect((JSON.parse(after.text) as { id: number }[]).at(-1)?.id).toBe(id)
    expect(after.length).toBe(String(Buffer.byteLength(after.text)))
  }
  await reported(7)
})

// Answers are written together at the end of a turn of the event loop (see sendOutbox in
// exchange.ts): a burst of requests on separate connections must each get their own answer.
it('answers a burst of requests on separate connections, each with its own animal', async () => {
  const ids = fake.snapshot().slice(0, 24).map((pet) => Number(pet.id))
  const answers = await Promise.all(
    ids.map(async (id) => {
      const response = await fetch(`${server.url}/v1/pets/${id}`, {
        headers: { authorization: `Bearer ${TEST_KEY}`, connection: 'close' },
      })
      return (await response.json()) as { id: number }
    }),
  )
  expect(answers.map(({ id }) => id)).toEqual(ids)
  await reported(ids.length)
})

it('reports an answer that cannot be written to onError and closes its connection; the others still go out', async () => {
  const errors: unknown[] = []
  const broken = await startServer({
    app: {
      // A header value with a line break: node:http refuses to write it.
      handle: (request) => ({ status: 200, headers: request.path === '/bad' ? { 'x-broken': 'a\nb' } : {}, body: request.path }),
    },
    onError: (error) => errors.push(error),
  })
  try {
    const [bad, ...good] = await Promise.allSettled(
      ['/bad', ...Array.from({ length: 8 }, (_, i) => `/good-${i}`)].map(async (path) => (await fetch(`${broken.url}${path}`, { headers: { connection: 'close' } })).text()),
    )
    expect(bad?.status).toBe('rejected')
    expect(good.map((answer) => (answer.status === 'fulfilled' ? answer.value : answer.reason))).toEqual(Array.from({ length: 8 }, (_, i) => `/good-${i}`))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'ERR_INVALID_CHAR' })
  } finally {
    await broken.close()
  }
})

// Header names are lower-cased through a bounded cache (see joinedHeaders in exchange.ts).
it('reads header names however they are spelled, more distinct names than it remembers included', async () => {
  const send = (headers: Record<string, string>): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${server.url}/v1/pets?limit=1`, { headers: { ...headers, connection: 'close' } }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject).end()
    })
  fake.clearJournal()
  const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`X-Name-${i}`, String(i)]))
  for (const spelling of ['AUTHORIZATION', 'Authorization', 'aUtHoRiZaTiOn']) {
    expect(await send({ ...many, [spelling]: `Bearer ${TEST_KEY}` })).toBe(200)
  }
  expect(await send({ ...many, Authorization: 'Bearer not-a-key' })).toBe(401)
  const entries = fake.journal()
  expect(entries).toHaveLength(4)
  for (const entry of entries) {
    expect(entry.headers['x-name-299']).toBe('299')
    expect(Object.keys(entry.headers).every((name) => name === name.toLowerCase())).toBe(true)
  }
  await reported(4)
})

it('sends the same body with each answer\'s own headers: a 401 from the list, then from the deprecated get, then the list again', async () => {
  const bare = (path: string) => fetch(`${server.url}/v1${path}`)
  const fromList = await bare('/pets')
  const fromGet = await bare('/pets/1')
  const again = await bare('/pets')
  const bodies = await Promise.all([fromList, fromGet, again].map((response) => response.text()))
  expect(new Set(bodies).size).toBe(1)
  expect([fromList, fromGet, again].map((response) => response.status)).toEqual([401, 401, 401])
  expect([fromList, fromGet, again].map((response) => response.headers.get('sunset'))).toEqual([null, 'Thu, 05 Dec 2030 00:00:00 GMT', null])
})

it('serves a bare handler with paths as they arrive: a fake without the site answers at /pets', async () => {
  const bareFake = createFake({ keys: [TEST_KEY], pets: [] })
  const bareServer = await startServer({ app: bareFake })
  try {
    const created = await fetch(`${bareServer.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bare', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    expect(created.headers.get('location')).toBe(`/pets/${id}`)
  } finally {
    await bareServer.close()
  }
})

describe('a client that goes away before the answer', () => {
  const servers: RunningServer[] = []
  afterAll(() => Promise.all(servers.map((server) => server.close())))

  // An answer the app works out over time (a snapshot or a seed of the control API, say) may be
  // ready only after its client has gone. test/node/bodies.test.ts covers a client that leaves during
  // a forced delay, which is noticed when it leaves; this one is noticed when the answer is ready.
  it('reports a client that went away while the app worked out its answer once, with no status, and no error', async () => {
    let handed: () => void = () => {}
    const asked = new Promise<void>((resolve) => (handed = resolve))
    let answer: (reply: Reply) => void = () => {}
    const app: Handler = {
      handle: () => {
        handed()
        return new Promise<Reply>((resolve) => (answer = resolve))
      },
    }
    const exchanges: Exchange[] = []
    let reported: () => void = () => {}
    const firstReport = new Promise<void>((resolve) => (reported = resolve))
    const onExchange = (exchange: Exchange) => {
      exchanges.push(exchange)
      reported()
    }
    const errors: unknown[] = []
    const server = await startServer({ app, onExchange, onError: (error) => errors.push(error) })
    servers.push(server)
    const closed = new Promise<void>((resolve) => server.server.once('connection', (socket: Socket) => socket.once('close', () => resolve())))

    const { port } = new URL(server.url)
    const client = connect(Number(port), '127.0.0.1')
    await once(client, 'connect')
    client.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await asked
    client.destroy()
    await closed
    expect(exchanges).toEqual([])

    answer({ status: 200, headers: { 'content-type': 'application/json' }, body: '[]' })
    await firstReport
    // Anything more would come in the same turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve))
    expect(exchanges.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'GET', path: '/v1/pets', status: null }])
    expect(errors).toEqual([])
  })
})

// The contract between the core and this adapter: fields made with constantFields are the same
// for good, so what is made of them is kept; any other fields are read for each answer.
it('reads header fields that are not constant afresh for each answer, and keeps answering constant ones as they are', async () => {
  const fixed = constantFields({ 'x-kind': 'fixed' })
  const changing: Record<string, string> = { 'x-kind': 'first' }
  expect([isConstantFields(fixed), isConstantFields(changing)]).toEqual([true, false])
  const own = await startServer({ app: { handle: (request) => ({ status: 200, headers: request.path === '/fixed' ? fixed : changing, body: 'same' }) } })
  try {
    const kinds: (string | null)[] = []
    for (const [path, next] of [['/changing', 'second'], ['/changing', 'third'], ['/fixed', ''], ['/fixed', ''], ['/changing', '']] as const) {
      kinds.push((await fetch(`${own.url}${path}`)).headers.get('x-kind'))
      if (next !== '') changing['x-kind'] = next
    }
    expect(kinds).toEqual(['first', 'second', 'fixed', 'fixed', 'third'])
  } finally {
    await own.close()
  }
})
