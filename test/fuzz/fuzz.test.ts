import { request as httpRequest } from 'node:http'
import fc from 'fast-check'
import { FAST_CHECK_SEED } from '../support/fast-check-seed.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { isDropped, type PlainRequest } from '../../src/service/http.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createFake, type Fake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createTestFake } from '../support/core-fake.js'
import { shippedPets } from '../support/fixtures.js'
import { createOracle, type Observed } from './openapi-oracle.js'
import { createRequestArbitrary, FUZZ_KEY, type FuzzRequest } from './request-arbitraries.js'
import { createStoreModel } from './store-model.js'

// FUZZ_RUNS=5000 FUZZ_SEED=42 npm test -- test/fuzz for a longer or repeated run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 700)
const SEED = FAST_CHECK_SEED
// 700 sequences of 5 to 30 requests make at least 10,000; fewer runs (the mutation run's) scale it down.
const MIN_REQUESTS = Math.floor((RUNS * 10_000) / 700)

const fixture = shippedPets('default')
const oracle = createOracle()
const sequences = fc.array(createRequestArbitrary(), { minLength: 5, maxLength: 30, size: 'max' })
const decoder = new TextDecoder()

function toPlain(request: FuzzRequest): PlainRequest {
  const headers: Record<string, string> = Object.create(null)
  for (const [name, value] of request.headers) headers[name] = name in headers ? `${headers[name]}, ${value}` : value
  const search = new URLSearchParams(request.query.map(([k, v]) => [k, v])).toString()
  return { method: request.method, path: request.path, basePath: API_BASE, search, headers, body: request.body }
}

function describe(request: FuzzRequest, observed: Observed, problems: readonly string[]): string {
  const body = request.body === undefined ? '' : ` body ${JSON.stringify(decoder.decode(request.body).slice(0, 200))}`
  return `${problems.join('; ')}\n  request: ${request.method} ${request.path}?${new URLSearchParams(request.query.map(([k, v]) => [k, v]))} headers ${JSON.stringify(request.headers)}${body}\n  answer: ${observed.status} ${observed.body.slice(0, 200)}`
}

/** Every created animal is still there and unchanged, and a full list shows exactly the store. */
function finalProblems(model: ReturnType<typeof createStoreModel>, ask: (path: string, query?: string) => Observed): string[] {
  const problems: string[] = []
  for (const id of model.ids()) {
    const got = ask(`/pets/${id}`)
    if (got.status !== 200 || model.canonical(got.body) !== model.expected(id)) problems.push(`animal ${id} is lost or changed: ${got.status} ${got.body}`)
  }
  const listed = model.parse(ask('/pets', 'limit=100').body) as unknown[]
  problems.push(...model.checkList(listed, new URLSearchParams('limit=100')))
  if (listed.length !== Math.min(100, model.size)) problems.push(`listed ${listed.length} of ${model.size} animals`)
  return problems
}

it(`answers ${MIN_REQUESTS}+ generated requests as the OpenAPI document says, never a 5xx, and keeps the store whole`, () => {
  let requests = 0
  fc.assert(
    fc.property(sequences, (sequence) => {
      const fake = createTestFake({ pets: fixture, keys: [FUZZ_KEY], maxAnimals: 60 })
      const model = createStoreModel(fixture)
      const ask = (path: string, query = ''): Observed => observe(fake, { method: 'GET', path, query: [...new URLSearchParams(query)], headers: [['authorization', `Bearer ${FUZZ_KEY}`]] })
      for (const request of sequence) {
        requests += 1
        const observed = observe(fake, request)
        const problems = [...oracle.check(request.method, request.path, observed), ...model.observe(request, observed.status, observed.body)]
        if (problems.length > 0) throw new Error(describe(request, observed, problems))
      }
      const problems = finalProblems(model, ask)
      if (problems.length > 0) throw new Error(problems.join('\n'))
    }),
    { numRuns: RUNS, seed: SEED },
  )
  expect(requests).toBeGreaterThanOrEqual(MIN_REQUESTS)
})

function observe(fake: Fake, request: FuzzRequest): Observed {
  const reply = fake.handle(toPlain(request))
  if (isDropped(reply)) throw new Error('a request was dropped with no forced rule set')
  return { status: reply.status, headers: reply.headers, body: reply.body ?? '' }
}

// The same requests over real HTTP: the node adapter must not crash or answer differently.
let server: RunningServer
let shared: Fake
beforeAll(async () => {
  shared = createFake({ pets: fixture, keys: [FUZZ_KEY], maxAnimals: 60 })
  server = await startServer({ app: createSite({ api: shared }) })
})
afterAll(() => server.close())

const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'])
const HEADER_VALUE = /^[\t\x20-\x7e]*$/

function sendOverHttp(request: FuzzRequest): Promise<Observed | undefined> {
  const headers = request.headers.filter(([name, value]) => /^[a-z_-]+$/.test(name) && HEADER_VALUE.test(value) && name !== '__proto__')
  const query = new URLSearchParams(request.query.map(([k, v]) => [k, v])).toString()
  const path = `${API_BASE}${request.path}${query === '' ? '' : `?${query}`}`
  if (!HTTP_METHODS.has(request.method) || (request.body?.byteLength ?? 0) > 1024 * 1024 || !/^[\x21-\x7e]*$/.test(path) || path.length > 8000) {
    return Promise.resolve(undefined) // fetch-like clients cannot send it; the in-process run covers it
  }
  return new Promise((resolve, reject) => {
    // Raw headers keep repeats apart; with them Node adds no Host, so one is sent here.
    const raw = [['host', 'localhost'], ...headers].flat()
    const { hostname, port } = new URL(server.url)
    // An options object, not a URL, so that the path goes out exactly as generated (`..` included).
    const req = httpRequest({ host: hostname, port, path, method: request.method, headers: raw })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const received: Record<string, string> = {}
        for (const [name, value] of Object.entries(res.headers)) received[name] = Array.isArray(value) ? value.join(', ') : (value ?? '')
        resolve({ status: res.statusCode ?? 0, headers: received, body: Buffer.concat(chunks).toString('utf8') })
      })
    })
    req.on('error', reject)
    req.end(request.body === undefined ? undefined : Buffer.from(request.body))
  })
}

it('answers generated requests over real HTTP the same way, the server alive throughout', async () => {
  let sent = 0
  await fc.assert(
    fc.asyncProperty(sequences, async (sequence) => {
      shared.reset()
      const model = createStoreModel(fixture)
      for (const request of sequence) {
        const observed = await sendOverHttp(request)
        if (observed === undefined) continue
        sent += 1
        const problems = [...oracle.check(request.method, request.path, observed), ...model.observe(request, observed.status, observed.body)]
        if (problems.length > 0) throw new Error(describe(request, observed, problems))
      }
    }),
    { numRuns: Math.max(100, Math.round(RUNS / 7)), seed: SEED },
  )
  expect(sent).toBeGreaterThan(1000)
  const health = await fetch(`${server.url}${API_BASE}/pets`, { headers: { authorization: `Bearer ${FUZZ_KEY}` } })
  expect(health.status).toBe(200)
})
