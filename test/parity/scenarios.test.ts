import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CreationLog, watchCreations } from '../../src/deployment/creations.js'
import { LARGE_BODY_BYTES, PARITY_SCENARIOS, type Scenario, type ScenarioSide } from '../../src/parity/scenarios.js'
import { SPEC } from '../../src/spec/citations.js'
import { type Drift, type IndependentService, startIndependentService } from '../support/independent-service/service.js'

const said = (name: keyof typeof SPEC): string => `spec ${SPEC[name].section}: "${SPEC[name].quote}"`
const scenario = (id: string): Scenario => {
  const found = PARITY_SCENARIOS.find((each) => each.id === id)
  if (found === undefined) throw new Error(`no scenario ${id}`)
  return found
}
const KEY = 'scenario-key-1'
const NOTHING_SEEN: CreationLog = { before: new Map(), created: [] }
const MARKER = '[animals-mock parity t-1]'
const STATUSES = ['available', 'pending', 'sold']

type Animal = { id: number; name: string; categoryId: number; status?: string }
type StubOptions = {
  /** Animals 1..n, listed oldest first, every third one sold. */
  readonly seeded?: number
  /** The ids `POST /pets` takes, one per request whether it is refused or not; then 1000 onwards. */
  readonly ids?: readonly number[]
  readonly storeRefused?: boolean
  /** The status a refused request gets, by its Authorization ('' for none); 401 unless named. */
  readonly refusedWith?: Readonly<Record<string, number>>
  /** Lists answered 503. */
  readonly listsDown?: boolean
  /** Lists and animals answered with `null` among them, or as `null`. */
  readonly nulls?: boolean
  /** A created animal answered 201 with a body that is not JSON. */
  readonly createdNotJson?: boolean
  /** How `GET /pets?limit=1` is answered after a large body. */
  readonly listAfterLargeBody?: 'answered' | 503 | 'no answer'
  readonly largeBody?: 'answered' | 'connection closed'
}

/** A service in this process, reached through the scenario's `fetch`: every request it got, and its animals. */
function createStub(options: StubOptions = {}) {
  const animals: Animal[] = Array.from({ length: options.seeded ?? 0 }, (_, index) => ({ id: index + 1, name: `Seeded ${index + 1}`, categoryId: 1, status: STATUSES[index % 3] ?? 'sold' }))
  const ids = [...(options.ids ?? [])]
  let next = 1000
  let largeBodySeen = false
  const requests: string[] = []
  const bodies: { readonly headers: Record<string, string>; readonly body?: string }[] = []
  const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  const refusal = (status: number) => reply(status, { code: 'no', message: 'no', status })
  const fetchStub = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input))
    const method = init?.method ?? 'GET'
    const headers = (init?.headers ?? {}) as Record<string, string>
    requests.push(`${method} ${url.pathname}${url.search}`)
    const body = typeof init?.body === 'string' ? init.body : undefined
    bodies.push(body === undefined ? { headers } : { headers, body })
    const authorized = headers.authorization === `Bearer ${KEY}`
    if (method === 'POST' && url.pathname === '/v1/pets') {
      if ((body?.length ?? 0) > 65_536) {
        largeBodySeen = true
        if (options.largeBody === 'connection closed') throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) })
        return refusal(413)
      }
      const id = ids.shift() ?? next++
      const sent = JSON.parse(body ?? '{}') as Omit<Animal, 'id'>
      if (!authorized) {
        if (options.storeRefused === true) animals.push({ ...sent, id })
        return refusal(options.refusedWith?.[headers.authorization ?? ''] ?? 401)
      }
      animals.push({ ...sent, id })
      return options.createdNotJson === true ? new Response('created', { status: 201 }) : reply(201, { ...sent, id })
    }
    if (!authorized) return refusal(401)
    if (method === 'GET' && url.pathname === '/v1/pets') {
      if (options.listsDown === true) return refusal(503)
      if (largeBodySeen && options.listAfterLargeBody === 503) return refusal(503)
      if (largeBodySeen && options.listAfterLargeBody === 'no answer') throw new DOMException('The operation was aborted due to timeout', 'TimeoutError')
      const status = url.searchParams.get('status')
      const limit = Number(url.searchParams.get('limit') ?? '20')
      const listed = animals.filter((each) => status === null || each.status === status).slice(0, limit)
      return reply(200, options.nulls === true ? [null, ...listed] : listed)
    }
    if (options.nulls === true) return reply(200, null)
    const found = animals.find((each) => `/v1/pets/${each.id}` === url.pathname)
    return found === undefined ? refusal(404) : reply(200, found)
  }
  const side: ScenarioSide = { baseUrl: 'http://stub.test/v1', apiKey: KEY, marker: MARKER, timeoutMs: 1000, fetch: fetchStub as typeof fetch, creations: NOTHING_SEEN }
  return { side, requests, bodies, animals }
}

const services: IndependentService[] = []
async function independent(drift?: Drift): Promise<ScenarioSide> {
  const service = await startIndependentService({ keys: [KEY], seeded: 120, ...(drift === undefined ? {} : { drift }) })
  services.push(service)
  return { baseUrl: service.baseUrl, apiKey: KEY, marker: MARKER, timeoutMs: 10_000, fetch: (input, init) => fetch(input, init), creations: NOTHING_SEEN }
}

/**
 * The side as a parity run has it: its animals listed first, then `count` animals created through
 * the fetch that notes their ids (as parity's own set-up, probes and scenarios create them).
 */
async function afterCreations(side: ScenarioSide, count: number): Promise<ScenarioSide> {
  const { log, fetch: watching } = await watchCreations(side)
  for (let index = 0; index < count; index++) {
    const body = JSON.stringify({ name: `Created ${index + 1} ${MARKER}`, categoryId: 1 })
    await watching(`${side.baseUrl}/pets`, { method: 'POST', headers: { authorization: `Bearer ${side.apiKey}`, 'content-type': 'application/json' }, body })
  }
  return { ...side, fetch: watching, creations: log }
}
const idsOfTheRun = (side: ScenarioSide) => scenario('ids-unique-after-existing').run(side)
let correct: ScenarioSide
beforeAll(async () => {
  correct = await independent()
})
afterAll(() => Promise.all(services.map((each) => each.close())))

it('finds no refused animal stored by a service that keeps the rule', async () => {
  expect(await scenario('refused-create-stores-nothing').run(correct)).toEqual({ summary: 'none of the refused animals stored', violations: [] })
})

it('finds every refused animal a service stored, saying how it was sent and how it was answered', async () => {
  const result = await scenario('refused-create-stores-nothing').run(await independent('refused request still stored'))
  const reason = (how: string) => `an animal sent with ${how} was stored although the request was answered 401; ${said('keyNeeded')}`
  expect(result).toEqual({
    summary: 'stored: sent with no key, an invalid key, an empty bearer token',
    violations: [
      { aspect: 'stored animals', reason: reason('no key') },
      { aspect: 'stored animals', reason: reason('an invalid key') },
      { aspect: 'stored animals', reason: reason('an empty bearer token') },
    ],
  })
})

it('sends each refusal with its own credential, a marked name and a pending status', async () => {
  const stub = createStub()
  await scenario('refused-create-stores-nothing').run(stub.side)
  const posts = stub.bodies.filter((each) => each.body !== undefined)
  expect(posts.map((each) => each.headers.authorization)).toEqual([`Bearer ${KEY}`, undefined, 'Bearer not-a-valid-key', 'Bearer ', `Bearer ${KEY}`])
  expect(posts.map((each) => JSON.parse(each.body ?? '') as unknown)).toEqual([
    { name: `Refusal bracket ${MARKER}`, categoryId: 1 },
    { name: `Refused probe (no key) ${MARKER}`, categoryId: 1, status: 'pending' },
    { name: `Refused probe (an invalid key) ${MARKER}`, categoryId: 1, status: 'pending' },
    { name: `Refused probe (an empty bearer token) ${MARKER}`, categoryId: 1, status: 'pending' },
    { name: `Refusal bracket ${MARKER}`, categoryId: 1 },
  ])
  expect(posts[1]?.headers).toStrictEqual({ accept: 'application/json', 'content-type': 'application/json' })
  expect(posts[0]?.headers).toStrictEqual({ accept: 'application/json', authorization: `Bearer ${KEY}`, 'content-type': 'application/json' })
  // Two lists, then a look at each of the 3 ids between the bracketing animals.
  const reads = stub.bodies.filter((each) => each.body === undefined)
  expect(reads).toHaveLength(5)
  for (const read of reads) expect(read.headers).toStrictEqual({ accept: 'application/json', authorization: `Bearer ${KEY}` })
})

it('is not thrown by nulls where animals are due, nor by a created animal that is not JSON', async () => {
  const nulls = createStub({ seeded: 400, storeRefused: true, nulls: true, ids: [500, 501, 502, 503, 504] })
  expect(await scenario('refused-create-stores-nothing').run(nulls.side)).toEqual({ summary: 'none of the refused animals stored', violations: [] })
  expect(nulls.requests.filter((each) => each.startsWith('GET /v1/pets/'))).toEqual(['GET /v1/pets/501', 'GET /v1/pets/502', 'GET /v1/pets/503'])
  expect(await idsOfTheRun(await afterCreations(createStub({ seeded: 3, nulls: true }).side, 1))).toEqual({
    summary: '1 created, no id among the 3 listed before, none given twice',
    violations: [],
  })
  expect(await idsOfTheRun(await afterCreations(createStub({ seeded: 3, createdNotJson: true }).side, 2))).toEqual({ summary: 'no animal created', violations: [] })
})

it('looks up each id between the bracketing animals, up to 10 of them, where the lists do not reach', async () => {
  // 400 animals listed oldest first, 133 of them pending: a refused animal stored is among neither first 100.
  const between = createStub({ seeded: 400, storeRefused: true, ids: [500, 501, 505, 510, 511] })
  const found = await scenario('refused-create-stores-nothing').run(between.side)
  expect(found.summary).toBe('stored: sent with no key, an invalid key, an empty bearer token')
  expect(between.requests.filter((each) => each.startsWith('GET /v1/pets/'))).toEqual(Array.from({ length: 10 }, (_, index) => `GET /v1/pets/${501 + index}`))
  expect(between.requests.filter((each) => each.startsWith('GET /v1/pets?'))).toEqual(['GET /v1/pets?limit=100', 'GET /v1/pets?status=pending&limit=100'])

  const apart = createStub({ seeded: 400, storeRefused: true, ids: [500, 501, 505, 510, 512] })
  expect(await scenario('refused-create-stores-nothing').run(apart.side)).toEqual({ summary: 'none of the refused animals stored', violations: [] })
  expect(apart.requests.filter((each) => each.startsWith('GET /v1/pets/'))).toEqual([])

  const adjacent = createStub({ seeded: 400, storeRefused: true, ids: [500, 600, 601, 602, 501] })
  await scenario('refused-create-stores-nothing').run(adjacent.side)
  expect(adjacent.requests.filter((each) => each.startsWith('GET /v1/pets/'))).toEqual([])
})

it('says how each stored refusal was answered', async () => {
  const stub = createStub({ storeRefused: true, refusedWith: { '': 401, 'Bearer not-a-valid-key': 403, 'Bearer ': 400 } })
  const result = await scenario('refused-create-stores-nothing').run(stub.side)
  expect(result.violations.map((each) => each.reason.replace(/; spec .*/, ''))).toEqual([
    'an animal sent with no key was stored although the request was answered 401',
    'an animal sent with an invalid key was stored although the request was answered 403',
    'an animal sent with an empty bearer token was stored although the request was answered 400',
  ])
})

it('finds nothing stored, and no id taken, where the lists are not answered', async () => {
  expect(await scenario('refused-create-stores-nothing').run(createStub({ storeRefused: true, listsDown: true, ids: [1, 20, 21, 22, 40] }).side)).toEqual({
    summary: 'none of the refused animals stored',
    violations: [],
  })
  expect(await idsOfTheRun(await afterCreations(createStub({ seeded: 5, listsDown: true, ids: [3] }).side, 1))).toEqual({
    summary: '1 created, no id among the 0 listed before, none given twice',
    violations: [],
  })
})

it('finds a new id that an animal listed before the first creation already had, however late it is created', async () => {
  expect(await idsOfTheRun(await afterCreations(await independent(), 2))).toEqual({
    summary: '2 created, no id among the 120 listed before, none given twice',
    violations: [],
  })
  const reused = await idsOfTheRun(await afterCreations(await independent('new ids reuse seeded ids'), 1))
  expect(reused).toEqual({
    summary: '1 of 1 new ids already taken',
    violations: [{ aspect: 'ids', reason: `1 of 1 new animals got ids that animals listed before the first creation already had: 1 (listed as "Seeded 1"); ${said('petId')}` }],
  })
  // A counter from 1 under 5 seeded animals: the first 5 of 30 creations take their ids.
  const few = await idsOfTheRun(await afterCreations(createStub({ seeded: 5, ids: [1, 2, 3, 4, 5] }).side, 30))
  expect(few.summary).toBe('5 of 30 new ids already taken')
  expect(few.violations.map((each) => each.reason.replace(/; spec .*/, ''))).toEqual([
    '5 of 30 new animals got ids that animals listed before the first creation already had: 1 (listed as "Seeded 1"), 2 (listed as "Seeded 2"), 3 (listed as "Seeded 3") and 2 more',
  ])
})

it('finds a new id an earlier new animal already had', async () => {
  const again = await idsOfTheRun(await afterCreations(createStub({ ids: [7, 8, 7, 9, 8] }).side, 5))
  expect(again).toEqual({
    summary: '2 of 5 new ids given twice',
    violations: [{ aspect: 'ids', reason: `2 of 5 new animals got an id an earlier new animal had: 7, 8; ${said('petId')}` }],
  })
  const both = await idsOfTheRun(await afterCreations(createStub({ seeded: 2, ids: [2, 2] }).side, 2))
  expect(both.summary).toBe('2 of 2 new ids already taken; 1 of 2 new ids given twice')
})

it('lists all animals and each status, 100 each, before the first creation; notes only creations answered 201 with an integer id; sends nothing itself', async () => {
  const stub = createStub({ seeded: 3 })
  const side = await afterCreations(stub.side, 1)
  expect(stub.requests).toEqual([
    'GET /v1/pets?limit=100',
    'GET /v1/pets?status=available&limit=100',
    'GET /v1/pets?status=pending&limit=100',
    'GET /v1/pets?status=sold&limit=100',
    'POST /v1/pets',
  ])
  expect(stub.bodies[0]?.headers).toStrictEqual({ accept: 'application/json', authorization: `Bearer ${KEY}` })
  // A refused creation, a read, and a creation with a query: only the last is an animal created.
  await side.fetch(`${side.baseUrl}/pets`, { method: 'POST', body: JSON.stringify({ name: 'Refused', categoryId: 1 }) })
  await side.fetch(`${side.baseUrl}/pets/1000`, { headers: { authorization: `Bearer ${KEY}` } })
  await side.fetch(`${side.baseUrl}/pets?from=test`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify({ name: 'Queried', categoryId: 1 }) })
  expect(side.creations.created).toEqual(['1000', '1002'])
  const sent = stub.requests.length
  expect(await idsOfTheRun(side)).toEqual({ summary: '2 created, no id among the 3 listed before, none given twice', violations: [] })
  expect(stub.requests).toHaveLength(sent)
})

it('judges no id when no animal was created', async () => {
  expect(await idsOfTheRun(await afterCreations(await independent('createPet answers 200'), 1))).toEqual({ summary: 'no animal created', violations: [] })
})

it('requires distinct ids for animals created at once', async () => {
  expect(await scenario('ids-unique-in-parallel').run(correct)).toEqual({ summary: '20 created, 20 distinct ids', violations: [] })
  const shared = await scenario('ids-unique-in-parallel').run(await independent('parallel creations share an id'))
  expect(shared).toEqual({
    summary: '20 created, 1 distinct ids',
    violations: [{ aspect: 'ids', reason: `20 animals created at once got 1 distinct ids; ${said('petId')}` }],
  })
  // The same when the 20 arrive spread over 380 ms, as a busy machine sends them.
  const drifted = await independent('parallel creations share an id')
  let sent = 0
  const spread: typeof fetch = async (input, init) => {
    await new Promise((resolve) => setTimeout(resolve, 20 * sent++))
    return drifted.fetch(input, init)
  }
  expect((await scenario('ids-unique-in-parallel').run({ ...drifted, fetch: spread })).summary).toBe('20 created, 1 distinct ids')
  // Ids that are not integers are not counted as created.
  expect(await scenario('ids-unique-in-parallel').run(await independent('ids are strings'))).toEqual({ summary: '0 created, 0 distinct ids', violations: [] })
  const stub = createStub()
  await scenario('ids-unique-in-parallel').run(stub.side)
  expect(stub.bodies.map((each) => (JSON.parse(each.body ?? '') as { name: string }).name)).toEqual(Array.from({ length: 20 }, (_, index) => `Parallel probe ${index + 1} ${MARKER}`))
})

it('sends a 2 MiB body without a name, then requires the next list to be answered 200', async () => {
  expect(await scenario('survives-large-body').run(correct)).toEqual({ summary: 'the large body: 413; the next list: 200', violations: [] })
  const stub = createStub()
  await scenario('survives-large-body').run(stub.side)
  const [large] = stub.bodies
  expect(Buffer.byteLength(large?.body ?? '')).toBe(LARGE_BODY_BYTES)
  expect(LARGE_BODY_BYTES).toBe(2 * 1024 * 1024)
  expect(JSON.parse(large?.body ?? '')).toEqual({ categoryId: 'none' })
  expect(large?.headers.authorization).toBe(`Bearer ${KEY}`)
  expect(stub.requests).toEqual(['POST /v1/pets', 'GET /v1/pets?limit=1'])
})

it('calls a service that stops answering, or answers the next list with an error, a contradiction', async () => {
  const wedged = await scenario('survives-large-body').run({ ...(await independent('a 2 MiB body stops the service')), timeoutMs: 1500 })
  expect(wedged).toEqual({
    summary: 'the large body: 413; the next list: no answer',
    violations: [{ aspect: 'availability', reason: `after a 2 MiB body, GET /pets with a valid key got no answer (no answer within 1500 ms); ${said('listOk')}` }],
  })
  expect(await scenario('survives-large-body').run(createStub({ listAfterLargeBody: 503 }).side)).toEqual({
    summary: 'the large body: 413; the next list: 503',
    violations: [{ aspect: 'availability', reason: `after a 2 MiB body, GET /pets with a valid key was answered 503; ${said('listOk')}` }],
  })
  expect(await scenario('survives-large-body').run(createStub({ listAfterLargeBody: 'no answer' }).side)).toMatchObject({ summary: 'the large body: 413; the next list: no answer' })
})

it('leaves how the large body itself is answered open, a closed connection included', async () => {
  expect(await scenario('survives-large-body').run(createStub({ largeBody: 'connection closed' }).side)).toEqual({
    summary: 'the large body: connection closed (UND_ERR_SOCKET); the next list: 200',
    violations: [],
  })
})

describe('how a refused animal is looked up', () => {
  const KEY = 'lookup-key-1'
  const scenario = (id: string): Scenario => {
    const found = PARITY_SCENARIOS.find((each) => each.id === id)
    if (found === undefined) throw new Error(`no scenario ${id}`)
    return found
  }

  type Animal = { readonly id: number; readonly name: string; readonly categoryId: number; readonly status?: string }

  /**
   * A deployment, reached through the scenario's fetch, that gives a refused animal an id and keeps
   * it out of its lists; `GET /pets/{id}` answers such an animal with `hiddenStatus`, its record as the body.
   */
  function deploymentKeepingRefused(hiddenStatus: number): ScenarioSide {
    const shown: Animal[] = []
    const hidden: Animal[] = []
    let next = 1
    const reply = (status: number, body: unknown) => Response.json(body, { status })
    const fetchStub = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = new URL(String(input))
      const method = init?.method ?? 'GET'
      const authorized = (init?.headers as Record<string, string> | undefined)?.authorization === `Bearer ${KEY}`
      if (method === 'POST' && url.pathname === '/v1/pets') {
        const animal = { ...(JSON.parse(String(init?.body)) as Omit<Animal, 'id'>), id: next++ }
        if (!authorized) {
          hidden.push(animal)
          return reply(401, { code: 'unauthorized', message: 'A valid API key is needed.', status: 401 })
        }
        shown.push(animal)
        return reply(201, animal)
      }
      if (!authorized) return reply(401, { code: 'unauthorized', message: 'A valid API key is needed.', status: 401 })
      if (method === 'GET' && url.pathname === '/v1/pets') {
        const status = url.searchParams.get('status')
        return reply(200, shown.filter((each) => status === null || each.status === status))
      }
      const id = /^\/v1\/pets\/([0-9]+)$/.exec(url.pathname)?.[1]
      const found = shown.find((each) => String(each.id) === id)
      if (found !== undefined) return reply(200, found)
      const kept = hidden.find((each) => String(each.id) === id)
      if (kept !== undefined) return reply(hiddenStatus, kept)
      return reply(404, { code: 'not_found', message: 'No animal has this id.', status: 404 })
    }
    return { baseUrl: 'http://deployment.test/v1', apiKey: KEY, marker: '[animals-mock parity t-2]', timeoutMs: 5000, fetch: fetchStub as typeof fetch, creations: { before: new Map(), created: [] } }
  }

  // Only a 200 finds an animal: a deployment may answer an id it does not serve with any body,
  // the refused animal's record included.
  it('counts a refused animal as stored only when GET /pets/{id} answers it with 200, not with 410 or 404 and its record', async () => {
    for (const status of [410, 404]) {
      expect(await scenario('refused-create-stores-nothing').run(deploymentKeepingRefused(status)), String(status)).toEqual({
        summary: 'none of the refused animals stored',
        violations: [],
      })
    }
    const served = await scenario('refused-create-stores-nothing').run(deploymentKeepingRefused(200))
    expect(served.summary).toBe('stored: sent with no key, an invalid key, an empty bearer token')
    expect(served.violations).toHaveLength(3)
  })
})
