import { coreOf } from '../../src/fake/assemble-fake.js'
import { expect, it } from 'vitest'
import { CONTROL_BODY_LIMITS, createControl, snapshotBodyLimit } from '../../src/fake/control.js'
import { JOURNAL_PAGE } from '../../src/fake/control-input.js'
import { JOURNAL_PAGE_CHARS } from '../../src/fake/journal-reader.js'
import type { PlainRequest } from '../../src/service/http.js'
import { createTestFake, plainRequest } from '../support/core-fake.js'
import type { Pet } from '../../src/spec/animals-service.js'

// The control API in process: what test/node/control.test.ts checks over HTTP, down to each
// message and bound, and isolation's scoping, which the HTTP tests meet only through the CLI.

const pets: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
  { id: 3, name: 'Kit', categoryId: 2 },
]
const bytes = (text: string) => new TextEncoder().encode(text)
const control = (fields: Partial<PlainRequest>) => plainRequest({ basePath: '/__control', path: '/', ...fields })
const jsonBody = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: bytes(JSON.stringify(value)) })

async function ask(api: ReturnType<typeof createControl>, fields: Partial<PlainRequest>) {
  const response = await api.handle(control(fields))
  return { status: response.status, headers: response.headers, body: response.body === undefined || response.body === '' ? undefined : JSON.parse(response.body) }
}

/** Each query refused with 400 invalid_parameter and its message. */
async function expectRefusals(api: ReturnType<typeof createControl>, path: string, refusals: readonly (readonly [string, string])[]) {
  for (const [search, message] of refusals) {
    expect(await ask(api, { path, search }), search).toMatchObject({ status: 400, body: { code: 'invalid_parameter', message } })
  }
}

it('tells where a method has no control: 405 with the methods the path has, 404 where it has none', async () => {
  const api = createControl({ core: coreOf(createTestFake({ pets })) })
  expect(await ask(api, { method: 'PATCH', path: '/seed' })).toMatchObject({
    status: 405,
    headers: { allow: 'POST' },
    body: { code: 'method_not_allowed', message: 'PATCH is not allowed here; use POST.' },
  })
  expect(await ask(api, { method: 'PUT', path: '/journal' })).toMatchObject({ status: 405, headers: { allow: 'GET, DELETE' } })
  expect(await ask(api, { method: 'GET', path: '/forced/12' })).toMatchObject({ status: 405, headers: { allow: 'DELETE' } })
  for (const path of ['/forced/x', '/forced/1234567890', '/forced/12/x', '/x/forced/12', '/nothing']) {
    expect(await ask(api, { method: 'DELETE', path }), path).toMatchObject({ status: 404, body: { code: 'route_not_found', message: `No control at /__control${path}.` } })
  }
  expect(await ask(api, { method: 'DELETE', path: '/forced/12' })).toMatchObject({
    status: 404,
    body: { code: 'rule_not_found', message: 'No forced rule has id 12; see GET /__control/forced.' },
  })
  expect(api.admit(control({ method: 'DELETE', path: '/forced/12' }))).toBeUndefined()
  for (const path of ['/forced/12/x', '/x/forced/12', '/forced/1234567890']) expect(api.admit(control({ method: 'DELETE', path }))?.status, path).toBe(404)
  expect(api.admit(control({ method: 'GET', path: '/openapi.yaml' }))).toBeUndefined()
  expect(api.admit(control({ method: 'GET', path: '' }))).toBeUndefined()
  // The document is one control among the others: another method of its path is a 405.
  expect(api.admit(control({ method: 'POST', path: '/openapi.yaml' }))).toMatchObject({ status: 405, headers: { allow: 'GET' } })
  expect(api.admit(control({ method: 'PATCH', path: '/reset' }))?.status).toBe(405)
})

it('serves its own OpenAPI document only when it has one, and answers GET of an empty path as GET /', async () => {
  const bare = createControl({ core: coreOf(createTestFake({ pets })) })
  expect((await ask(bare, { path: '/openapi.yaml' })).status).toBe(404)
  const documented = createControl({ core: coreOf(createTestFake({ pets })), document: 'openapi: 3.1.0\n' })
  const document = await documented.handle(control({ path: '/openapi.yaml' }))
  expect(document).toEqual({ status: 200, headers: { 'content-type': 'application/yaml; charset=utf-8' }, body: 'openapi: 3.1.0\n' })
  expect((await documented.handle(control({ method: 'POST', path: '/openapi.yaml' }))).status).toBe(405)
  expect(await ask(bare, { path: '' })).toEqual({ status: 200, headers: expect.any(Object), body: { animals: 3, journal: 0, forcedRules: 0 } })
})

it('writes the recorded pact on POST /pact, and says how to record one when nothing is recorded', async () => {
  const bare = createControl({ core: coreOf(createTestFake({ pets })) })
  expect(await ask(bare, { method: 'POST', path: '/pact' })).toMatchObject({
    status: 404,
    body: { code: 'route_not_found', message: 'No pact is being recorded: start the fake in memory with --record-pact <dir> --consumer <name> (not with --store, where each replica would record a part).' },
  })
  const written = { file: 'pacts/web-animals.json', interactions: 2, warnings: [] }
  const recording = createControl({ core: coreOf(createTestFake({ pets })), writePact: async () => written })
  expect(await ask(recording, { method: 'POST', path: '/pact' })).toMatchObject({ status: 200, body: written })
})

it('takes large bodies only where a snapshot is loaded, and rules up to their own limit', () => {
  const fake = createTestFake({ pets, maxAnimals: 10, maxTextChars: 1000 })
  const api = createControl({ core: coreOf(fake) })
  expect(api.bodyLimit('PUT', '/snapshot')).toBe(snapshotBodyLimit(10, 1000))
  expect(api.bodyLimit('POST', '/forced')).toBe(CONTROL_BODY_LIMITS.rule)
  expect(api.bodyLimit('POST', '/snapshot')).toBe(CONTROL_BODY_LIMITS.small)
  expect(api.bodyLimit('PUT', '/forced')).toBe(CONTROL_BODY_LIMITS.small)
  expect(api.bodyLimit('POST', '/seed')).toBe(CONTROL_BODY_LIMITS.small)
})

it('refuses a snapshot without a body or in another content type, and loads nothing', async () => {
  const fake = createTestFake({ pets })
  const api = createControl({ core: coreOf(fake) })
  expect(await ask(api, { method: 'PUT', path: '/snapshot' })).toMatchObject({
    status: 400,
    body: { code: 'missing_body', message: 'A request body is required: a JSON array of animals.' },
  })
  expect(await ask(api, { method: 'PUT', path: '/snapshot', headers: { 'content-type': 'application/json' }, body: new Uint8Array(0) })).toMatchObject({ status: 400, body: { code: 'missing_body' } })
  for (const headers of [{ 'content-type': 'text/plain' }, {}]) {
    expect(await ask(api, { method: 'PUT', path: '/snapshot', headers, body: bytes('[]') })).toMatchObject({
      status: 400,
      body: { code: 'unsupported_content_type', message: 'The body must be sent with Content-Type: application/json (UTF-8).' },
    })
  }
  expect(fake.snapshot()).toHaveLength(3)
  expect(await ask(api, { method: 'PUT', path: '/snapshot', ...jsonBody([pets[0]]) })).toMatchObject({ status: 200, body: { animals: 1 } })
})

it('pages the animals from 0 by 20 by default, with bounds on offset and limit, and counts by status', async () => {
  const api = createControl({ core: coreOf(createTestFake({ pets })) })
  const page = await ask(api, { path: '/animals' })
  expect(page.body).toEqual({ total: 3, offset: 0, limit: 20, counts: { available: 1, pending: 0, sold: 1, none: 1 }, animals: pets })
  expect((await ask(api, { path: '/animals', search: 'status=sold&offset=0&limit=1000' })).body).toMatchObject({ total: 1, limit: 1000, animals: [pets[1]] })
  expect((await ask(api, { path: '/animals', search: 'offset=1&limit=1' })).body).toMatchObject({ total: 3, offset: 1, animals: [pets[1]] })
  const refusals: [string, string][] = [
    ['limit=1001', "Query parameter 'limit' must be a whole number from 1 to 1000."],
    ['limit=0', "Query parameter 'limit' must be a whole number from 1 to 1000."],
    ['limit=5x', "Query parameter 'limit' must be a whole number from 1 to 1000."],
    ['limit=x5', "Query parameter 'limit' must be a whole number from 1 to 1000."],
    ['offset=-1', "Query parameter 'offset' must be a whole number from 0 to 9007199254740991."],
    ['status=lost', "Query parameter 'status' must be one of available, pending, sold."],
  ]
  await expectRefusals(api, '/animals', refusals)
})

it('pages from the first animal at or above an id, and finds animals by a part of their name, ignoring case', async () => {
  const many = [1, 2, 5, 9, 9007199254740993n].map((id, i) => ({ id, name: ['Bella', 'Milo', 'bellatrix', 'Rex "the" Dog', 'Big'][i] ?? '', categoryId: 1, status: i % 2 === 0 ? ('available' as const) : ('sold' as const) }))
  const api = createControl({ core: coreOf(createTestFake({ pets: many })) })
  const page = async (search: string) => (await ask(api, { path: '/animals', search })).body as { total: number; offset: number; animals: { id: number | string; name: string }[]; scanned?: number; complete?: boolean }
  // from: the first id at or above, exactly at one, past the last; within a status too.
  expect(await page('from=5&limit=2')).toMatchObject({ total: 5, offset: 2, animals: [{ name: 'bellatrix' }, { name: 'Rex "the" Dog' }] })
  expect((await page('from=3&limit=1')).offset).toBe(2)
  expect((await page('from=1')).offset).toBe(0)
  expect((await page('from=9007199254740993')).offset).toBe(4)
  expect(await page('from=9007199254740994')).toMatchObject({ offset: 5, animals: [] })
  expect(await page('from=9&status=sold')).toMatchObject({ total: 2, offset: 1, animals: [{ name: 'Rex "the" Dog' }] })
  // name: a part, any case, with JSON-escaped characters; paged among the matches; all read.
  expect(await page('name=BELLA')).toMatchObject({ total: 2, offset: 0, scanned: 5, complete: true, animals: [{ name: 'Bella' }, { name: 'bellatrix' }] })
  expect(await page('name=bella&offset=1&limit=1')).toMatchObject({ total: 2, offset: 1, animals: [{ name: 'bellatrix' }] })
  expect(await page(`name=${encodeURIComponent('"the"')}`)).toMatchObject({ total: 1, animals: [{ name: 'Rex "the" Dog' }] })
  expect(await page('name=bella&status=sold')).toMatchObject({ total: 0, animals: [] })
  // The text must be in the name, not elsewhere in the animal.
  expect(await page('name=categoryId')).toMatchObject({ total: 0, animals: [] })
  await expectRefusals(api, '/animals', [
    ['from=x', "Parameter 'from' must be an animal id, a whole number."],
    ['from=1&name=a', "Give 'from' or 'name', not both."],
    ['name=', "Parameter 'name' must be 1 to 100 characters."],
    [`name=${'a'.repeat(101)}`, "Parameter 'name' must be 1 to 100 characters."],
  ])
  expect(await page(`name=${'a'.repeat(100)}`)).toMatchObject({ total: 0 })
})

it('filters the journal by method, path, status, tenant, since and limit, and refuses anything else', async () => {
  const fake = createTestFake({ pets })
  const api = createControl({ core: coreOf(fake) })
  fake.handle(plainRequest({ headers: { authorization: 'Bearer k' } }))
  fake.handle(plainRequest({ path: '/pets/9', headers: { authorization: 'Bearer k' } }))
  fake.handle(plainRequest({ method: 'POST', headers: {} }))
  const journal = async (search: string) => (await ask(api, { path: '/journal', search })).body.entries.map((entry: { status: number }) => entry.status)
  expect(await journal('')).toEqual([200, 404, 401])
  expect(await journal('status=404')).toEqual([404])
  expect(await journal('method=POST')).toEqual([401])
  expect(await journal('path=/pets/9')).toEqual([404])
  expect(await journal('tenant=shared&limit=1')).toHaveLength(1)
  expect(await journal('store=anything&status=200')).toEqual([200])
  const refusals: [string, string][] = [
    ['colour=red', "Unknown query parameter 'colour': use method, path, status, tenant, since or limit."],
    ['status=99', "Query parameter 'status' must be a whole number from 100 to 599."],
    ['status=600', "Query parameter 'status' must be a whole number from 100 to 599."],
    ['limit=1001', "Query parameter 'limit' must be a whole number from 1 to 1000."],
    ['limit=0', "Query parameter 'limit' must be a whole number from 1 to 1000."],
    ['since=1.5', "Query parameter 'since' must be a whole number from 0 to 9007199254740991."],
  ]
  await expectRefusals(api, '/journal', refusals)
  expect((await ask(api, { path: '/journal', search: 'status=599&limit=1000&since=0' })).status).toBe(200)
})

it('reads the journal a page at a time: the most recent page without since, the next after it with since, more and total saying what is left', async () => {
  const fake = createTestFake({ pets })
  const api = createControl({ core: coreOf(fake) })
  for (let i = 0; i < JOURNAL_PAGE.default + 30; i++) fake.handle(plainRequest({ path: `/pets/${i + 1}`, headers: { authorization: 'Bearer k' } }))
  const read = async (search: string) => {
    const { entries, ...rest } = (await ask(api, { path: '/journal', search })).body as { entries: { seq: number }[]; next: number; more: boolean; total: number }
    return { seqs: entries.map((entry) => entry.seq), ...rest }
  }
  const recent = await read('')
  expect(recent.seqs).toEqual(Array.from({ length: JOURNAL_PAGE.default }, (_, i) => i + 31))
  expect(recent).toMatchObject({ next: 130, more: false, total: 130 })
  const first = await read('since=0&limit=50')
  expect(first).toMatchObject({ next: 50, more: true, total: 130 })
  expect(first.seqs).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
  const rest = await read(`since=${first.next}`)
  expect(rest.seqs).toEqual(Array.from({ length: 80 }, (_, i) => i + 51))
  expect(rest).toMatchObject({ next: 130, more: false })
  expect(await read('since=130')).toEqual({ seqs: [], next: 130, more: false, total: 0 })
  expect(await read('since=128&limit=2')).toMatchObject({ seqs: [129, 130], next: 130, more: false })
  expect(await read('since=127&limit=2')).toMatchObject({ seqs: [128, 129], next: 129, more: true })
  expect((await ask(api, { path: '/' })).body).toMatchObject({ journal: 130 })
})

it(`ends a page early past ${JOURNAL_PAGE_CHARS} characters of JSON, keeping at least one entry, and says more wait`, async () => {
  const fake = createTestFake({ pets })
  const api = createControl({ core: coreOf(fake) })
  // Each entry holds a 4 KiB body, refused for its long name: about 4.5 KB of JSON.
  const body = new TextEncoder().encode(JSON.stringify({ name: 'x'.repeat(4200), categoryId: 1 }))
  for (let i = 0; i < 400; i++) fake.handle(plainRequest({ method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body }))
  const text = (await api.handle(control({ path: '/journal', search: 'since=0&limit=1000' }))).body ?? ''
  const { entries, next, more } = JSON.parse(text) as { entries: { seq: number }[]; next: number; more: boolean }
  expect(text.length).toBeLessThanOrEqual(JOURNAL_PAGE_CHARS + 100)
  expect(entries.length).toBeGreaterThan(100)
  expect(entries.length).toBeLessThan(400)
  expect(more).toBe(true)
  expect(next).toBe(entries.at(-1)?.seq)
  const after = (await ask(api, { path: '/journal', search: `since=${next}&limit=1000` })).body as { entries: { seq: number }[] }
  expect(after.entries[0]?.seq).toBe(next + 1)
})

it('under isolation, acts on the store of the key or the label sent, and names what is missing otherwise', async () => {
  const fake = createTestFake({ pets, isolate: true })
  const api = createControl({ core: coreOf(fake) })
  const alice = { authorization: 'Bearer alice' }
  fake.handle(plainRequest({ headers: alice }))
  expect(await ask(api, { path: '/', headers: alice })).toMatchObject({ status: 200, body: { animals: 3 } })
  expect(await ask(api, { path: '/' })).toMatchObject({ status: 200, body: { animals: null } })
  expect(await ask(api, { method: 'POST', path: '/seed', ...jsonBody({ count: 1 }) })).toMatchObject({
    status: 400,
    body: {
      code: 'store_not_named',
      message: 'Under isolation, name the store: send its key (Authorization: Bearer <key>) or its label (?store=<label>, see GET /__control/stores).',
    },
  })
  const seeded = await ask(api, { method: 'POST', path: '/seed', headers: { ...alice, 'content-type': 'application/json' }, body: bytes('{"count": 2}') })
  expect(seeded).toMatchObject({ status: 201, body: { added: 2, firstId: 4, lastId: 5, animals: 5 } })
  const { stores } = (await ask(api, { path: '/stores' })).body as { stores: { label: string; animals: number }[] }
  const label = stores.find((store) => store.animals === 5)?.label ?? ''
  expect(await ask(api, { path: '/', search: `store=${label}` })).toMatchObject({ body: { animals: 5 } })
  expect(await ask(api, { path: '/', search: 'store=nobody' })).toMatchObject({
    status: 400,
    body: { code: 'invalid_parameter', message: "No store is labelled 'nobody'; see /__control/stores." },
  })
  expect((await ask(api, { path: '/', headers: { authorization: 'Basic x' } })).status).toBe(401)
  expect(await ask(api, { path: '/', headers: { authorization: 'Bearer bob' } })).toMatchObject({ status: 200, body: { animals: 3 } })
})

it('needs the control token when one is set, else a key the API accepts when it needs one', async () => {
  const tokened = createControl({ core: coreOf(createTestFake({ pets, keys: ['k'] })), token: 'secret' })
  expect(await ask(tokened, { path: '/', headers: { authorization: 'Bearer k' } })).toMatchObject({
    status: 401,
    body: { code: 'unauthorized', message: 'The control API needs the control token in X-Control-Token.' },
  })
  expect((await ask(tokened, { path: '/', headers: { 'x-control-token': 'secret' } })).status).toBe(200)
  const keyed = createControl({ core: coreOf(createTestFake({ pets, keys: ['k'] })) })
  expect(await ask(keyed, { path: '/', headers: { authorization: 'Bearer wrong' } })).toMatchObject({
    status: 401,
    headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
    body: { code: 'unauthorized', message: 'The control API needs an API key the fake accepts: Authorization: Bearer <key>.' },
  })
  expect((await ask(keyed, { path: '/', headers: { authorization: 'Bearer k' } })).status).toBe(200)
  expect((await ask(createControl({ core: coreOf(createTestFake({ pets })) }), { path: '/' })).status).toBe(200)
})

it('gives ids past 2^53 as strings after a seed', async () => {
  const fake = createTestFake({ pets: [{ id: 9007199254740993n, name: 'Big', categoryId: 1 }] })
  const seeded = await ask(createControl({ core: coreOf(fake) }), { method: 'POST', path: '/seed', ...jsonBody({ count: 1 }) })
  expect(seeded.body).toEqual({ added: 1, firstId: '9007199254740994', lastId: '9007199254740994', animals: 2 })
})

it('sizes the snapshot body limit from the store limits: three bytes a text character, two an animal, 16 more, at most 256 MiB', () => {
  expect(snapshotBodyLimit(0, 0)).toBe(16)
  expect(snapshotBodyLimit(10, 1000)).toBe(3036)
  expect(snapshotBodyLimit(1, 0)).toBe(18)
  expect(snapshotBodyLimit(2_000_000, 256 * 1024 * 1024)).toBe(256 * 1024 * 1024)
})

it('says what body each control expects when it gets none, in JSON answers', async () => {
  const api = createControl({ core: coreOf(createTestFake({ pets })) })
  const expected = [
    ['POST', '/seed', 'an object such as {"count": 100, "seed": 7}'],
    ['POST', '/forced', 'a forced rule such as {"status": 503, "times": 1}'],
    ['PUT', '/latency', 'an object such as {"ms": 250} or {"minMs": 100, "maxMs": 900}'],
  ] as const
  for (const [method, path, what] of expected) {
    expect(await ask(api, { method, path, headers: { 'content-type': 'application/json' } }), path).toMatchObject({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: { code: 'missing_body', message: `A request body is required: ${what}.` },
    })
  }
  expect((await ask(api, { path: '/forced' })).headers).toEqual({ 'content-type': 'application/json' })
  expect(await ask(api, { path: '/openapi.yaml' })).toMatchObject({ status: 404, body: { code: 'route_not_found', message: 'No control at /__control/openapi.yaml.' } })
})
