import { expect, it } from 'vitest'
import { FakeInputError } from '../../src/service/errors.js'
import { isDropped } from '../../src/service/http.js'
import { createTestFake, plainRequest, respond } from '../support/core-fake.js'
import type { Pet } from '../../src/spec/animals-service.js'

const pets: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
]
const key = (token: string) => ({ authorization: `Bearer ${token}` })
const list = (token = 'k') => plainRequest({ headers: key(token), search: 'limit=100' })
const create = (name: string, token = 'k') =>
  plainRequest({
    method: 'POST',
    headers: { ...key(token), 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify({ name, categoryId: 3 })),
  })
const listed = (fake: ReturnType<typeof createTestFake>, token = 'k') =>
  JSON.parse(respond(fake, list(token)).body ?? '') as Pet[]

it('reset() returns to the fixture; reset(pets) makes new animals the fixture', () => {
  const fake = createTestFake({ pets })
  respond(fake, create('Added'))
  fake.reset()
  expect(listed(fake)).toEqual(pets)
  fake.reset([{ id: 9, name: 'Solo', categoryId: 1 }])
  respond(fake, create('Next'))
  fake.reset()
  expect(listed(fake)).toEqual([{ id: 9, name: 'Solo', categoryId: 1 }])
})

it('seed() adds generated animals after the highest id, the same for the same seed, all or nothing', async () => {
  const fake = createTestFake({ pets, maxAnimals: 10 })
  expect(await fake.seed(5, { seed: 7 })).toEqual({ added: 5, firstId: 3, lastId: 7 })
  const added = fake.snapshot().slice(2)
  const again = createTestFake({ pets })
  await again.seed(5, { seed: 7 })
  expect(again.snapshot().slice(2)).toEqual(added)
  await expect(fake.seed(4)).rejects.toThrow(FakeInputError)
  expect(fake.store.size).toBe(7)
  const soldOnly = createTestFake({ pets: [] })
  await soldOnly.seed(50, { seed: 1, statusMix: { available: 0, pending: 0, sold: 1, none: 0 } })
  expect(new Set(soldOnly.snapshot().map((pet) => pet.status))).toEqual(new Set(['sold']))
})

it('snapshot() and load() round-trip; a bad snapshot is refused whole, naming record and field', () => {
  const fake = createTestFake({ pets })
  respond(fake, create('Kept'))
  const snapshot = fake.snapshot()
  fake.reset()
  fake.load(snapshot)
  expect(listed(fake)).toEqual(snapshot)
  const bad = [...snapshot, { id: 99, name: 'Bad', categoryId: 'x' }]
  expect(() => fake.load(bad)).toThrow(/record 4 \(index 3\).*'categoryId'/)
  expect(listed(fake)).toEqual(snapshot)
  respond(fake, create('After'))
  expect(listed(fake).at(-1)?.id).toBe(4)
})

it('journals method, path, query, status and time, with credentials redacted, and filters and clears', () => {
  const fake = createTestFake({ pets })
  respond(fake, list('secret-key-4242'))
  fake.tick(1000)
  respond(fake, create('Logged', 'secret-key-4242'))
  respond(fake, plainRequest({ path: '/pets/77', headers: key('k'), search: 'api_key=abc' }))
  const all = fake.journal()
  expect(all.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
    ['GET', '/v1/pets', 200],
    ['POST', '/v1/pets', 201],
    ['GET', '/v1/pets/77', 404],
  ])
  expect(all[0]).toMatchObject({ query: 'limit=100', time: '2026-01-01T00:00:00.000Z', tenant: 'shared', forced: false })
  expect(all[1]).toMatchObject({ time: '2026-01-01T00:00:01.000Z', body: '{"name":"Logged","categoryId":3}' })
  expect(all[2]?.query).toBe('api_key=%5Bredacted%5D')
  expect(JSON.stringify(all)).not.toContain('secret-key-4242')
  expect(all[0]?.headers.authorization).toBe('Bearer [redacted]')
  expect(fake.journal({ method: 'post' }).map((entry) => entry.seq)).toEqual([2])
  expect(fake.journal({ path: '/pets' })).toHaveLength(2)
  expect(fake.journal({ status: 404, path: '/v1/pets/77' })).toHaveLength(1)
  expect(fake.journal({ since: 2 }).map((entry) => entry.seq)).toEqual([3])
  expect(fake.journal({ limit: 1 }).map((entry) => entry.seq)).toEqual([3])
  fake.clearJournal()
  expect(fake.journal()).toEqual([])
})

it("reads every store's journal under isolation by tenant, and pages it in request order across the stores", () => {
  const fake = createTestFake({ pets, isolate: true })
  respond(fake, list('key-a')) // 1: tenant-1
  respond(fake, list('key-b')) // 2: tenant-2
  respond(fake, plainRequest({ headers: {} })) // 3: no store took it
  respond(fake, create('B', 'key-b')) // 4: tenant-2
  respond(fake, list('key-a')) // 5: tenant-1
  const seqs = (filter: Parameters<typeof fake.journal>[0]) => fake.journal(filter).map((entry) => [entry.seq, entry.tenant])
  expect(seqs({ tenant: 'tenant-2' })).toEqual([[2, 'tenant-2'], [4, 'tenant-2']])
  expect(seqs({ tenant: 'tenant-9' })).toEqual([])
  // Each store keeps its own journal; a page runs in request order across them.
  expect(seqs({ since: 1, limit: 2 })).toEqual([[2, 'tenant-2'], [3, null]])
  expect(seqs({ limit: 2 })).toEqual([[4, 'tenant-2'], [5, 'tenant-1']])
  expect(seqs({ since: 3, limit: 10 })).toEqual([[4, 'tenant-2'], [5, 'tenant-1']])
})

it('keeps only the last journalSize entries, oldest first', () => {
  const fake = createTestFake({ pets, journalSize: 3 })
  for (let i = 0; i < 5; i++) respond(fake, list())
  expect(fake.journal().map((entry) => entry.seq)).toEqual([3, 4, 5])
})

it('forces a status with a valid Error body on the next N matching requests, then answers normally', () => {
  const fake = createTestFake({ pets })
  const rule = fake.force({ method: 'GET', path: '/pets', status: 503, times: 2 })
  expect(rule).toMatchObject({ id: 1, remaining: 2 })
  expect(respond(fake, create('Unaffected')).status).toBe(201)
  for (let i = 0; i < 2; i++) {
    const forced = respond(fake, list())
    expect(forced.status).toBe(503)
    expect(JSON.parse(forced.body ?? '')).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 })
  }
  expect(respond(fake, list()).status).toBe(200)
  expect(fake.forcedRules()).toEqual([])
  expect(fake.journal({ status: 503 }).every((entry) => entry.forced)).toBe(true)
})

it('forces delays, dropped connections and custom codes; rules match paths with * and the base', () => {
  const fake = createTestFake({ pets })
  fake.force({ path: '/v1/pets/*', drop: true, delayMs: 50 })
  const dropped = fake.handle(plainRequest({ path: '/pets/1', headers: key('k') }))
  expect(isDropped(dropped)).toBe(true)
  expect(dropped.delayMs).toBe(50)
  expect(fake.journal().at(-1)?.status).toBeNull()
  fake.unforce()
  fake.force({ delayMs: 1200, times: 1 })
  const slow = respond(fake, list())
  expect([slow.status, slow.delayMs]).toEqual([200, 1200])
  const custom = fake.force({ status: 429, code: 'slow_down', message: 'Easy.' })
  expect(JSON.parse(respond(fake, list()).body ?? '')).toEqual({ code: 'slow_down', message: 'Easy.', status: 429 })
  expect(fake.unforce(custom.id)).toBe(true)
  expect(fake.unforce(custom.id)).toBe(false)
  expect(respond(fake, list()).status).toBe(200)
})

it('refuses bad forced rules with the control API message', () => {
  const fake = createTestFake({ pets })
  for (const spec of [{}, { status: 200 }, { status: 503, drop: true }, { stauts: 503 }, { status: 503, times: 0 }, { code: 'x' }]) {
    expect(() => fake.force(spec as never), JSON.stringify(spec)).toThrow(FakeInputError)
  }
  for (const method of ['G T', '', 'A'.repeat(21), 5]) {
    expect(() => fake.force({ method, status: 503 } as never), String(method)).toThrow("Field 'method' must be an HTTP method such as GET.")
  }
  expect(fake.force({ method: 'A'.repeat(20), status: 503 }).method).toBe('A'.repeat(20))
  expect(fake.forcedRules()).toHaveLength(1)
})

it('adds fixed or ranged latency to every API answer, and none to preflights', () => {
  const fake = createTestFake({ pets, latency: { ms: 40 } })
  expect(respond(fake, list()).delayMs).toBe(40)
  fake.setLatency({ minMs: 100, maxMs: 200 })
  expect(respond(fake, list()).delayMs).toBe(150) // random() is 0.5 in tests
  expect(fake.latency).toEqual({ minMs: 100, maxMs: 200 })
  expect(respond(fake, plainRequest({ method: 'OPTIONS' })).delayMs).toBeUndefined()
  fake.setLatency({})
  expect(fake.latency).toStrictEqual({})
  expect(respond(fake, list()).delayMs).toBeUndefined()
  expect(() => fake.setLatency({ minMs: 5, maxMs: 1 })).toThrow(FakeInputError)
})

it("under isolation sets one store's latency without touching another's, and every store's replacing each one's own", () => {
  const fake = createTestFake({ pets, isolate: true })
  fake.forKey('key-a').setLatency({ ms: 30 })
  fake.forKey('key-b').setLatency({ ms: 70 })
  expect([fake.forKey('key-a').latency, fake.forKey('key-b').latency]).toEqual([{ ms: 30 }, { ms: 70 }])
  fake.setLatency({ ms: 5 })
  expect([fake.forKey('key-a').latency, fake.forKey('key-b').latency, fake.latency]).toEqual([{ ms: 5 }, { ms: 5 }, { ms: 5 }])
})

it('refuses a seed whole when only part of it fits, before any chunk is stored, and says how many it was', async () => {
  const fake = createTestFake({ pets, maxAnimals: 1202 })
  await expect(fake.seed(1500)).rejects.toThrow('The fake has no room for 1500 more animals: it holds 2 of at most 1202 animals')
  expect(fake.store.size).toBe(2)
  expect(await fake.seed(1200, { seed: 1 })).toMatchObject({ added: 1200, firstId: 3, lastId: 1202 })
})

it('under isolation gives each key its own store from the fixture, with its own controls', async () => {
  const fake = createTestFake({ pets, isolate: true })
  respond(fake, create('Only-A', 'key-a'))
  expect(listed(fake, 'key-a').map((pet) => pet.name)).toContain('Only-A')
  expect(listed(fake, 'key-b')).toEqual(pets)
  await fake.forKey('key-b').seed(2, { seed: 3 })
  expect(listed(fake, 'key-b')).toHaveLength(4)
  expect(listed(fake, 'key-a')).toHaveLength(3)
  fake.forKey('key-a').force({ status: 500 })
  expect(respond(fake, list('key-a')).status).toBe(500)
  expect(respond(fake, list('key-b')).status).toBe(200)
  expect(fake.forKey('key-b').journal().every((entry) => entry.tenant === fake.forKey('key-b').journal()[0]?.tenant)).toBe(true)
  fake.forKey('key-a').unforce()
  fake.forKey('key-a').reset()
  expect(listed(fake, 'key-a')).toEqual(pets)
  expect(() => fake.snapshot()).toThrow(/forKey/)
  expect(fake.stores().map((store) => store.label)).toEqual(['tenant-1', 'tenant-2'])
  // A reset renews every store in place: each key finds its store, back to the fixture.
  fake.forKey('key-a').force({ status: 500 })
  fake.reset()
  expect(fake.stores().map((store) => store.label)).toEqual(['tenant-1', 'tenant-2'])
  expect([listed(fake, 'key-a'), listed(fake, 'key-b')]).toEqual([pets, pets])
  expect(fake.forcedRules()).toEqual([])
})

it('under isolation removes a key\'s forced rules one by one, leaving its others in force', () => {
  const fake = createTestFake({ pets, isolate: true })
  const controls = fake.forKey('key-a')
  const first = controls.force({ method: 'POST', status: 503 })
  const second = controls.force({ method: 'GET', status: 500 })
  expect(controls.unforce(first.id)).toBe(true)
  expect(controls.unforce(first.id)).toBe(false)
  expect(controls.forcedRules().map((rule) => rule.id)).toEqual([second.id])
  expect(respond(fake, list('key-a')).status).toBe(500)
  expect(controls.unforce()).toBe(true)
  expect(respond(fake, list('key-a')).status).toBe(200)
})

it('resets an isolated store named by its label to the fixture', () => {
  const fake = createTestFake({ pets, isolate: true })
  respond(fake, create('Only-A', 'key-a'))
  respond(fake, create('Only-B', 'key-b'))
  fake.forLabel('tenant-1')?.reset()
  expect(listed(fake, 'key-a')).toEqual(pets)
  expect(listed(fake, 'key-b').map((pet) => pet.name)).toContain('Only-B')
})

it('refuses a snapshot of more animals than the cap whole, and takes one of exactly the cap', async () => {
  const fake = createTestFake({ pets, maxAnimals: 3 })
  const animals = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `A${i}`, categoryId: 1 })))
  await expect(fake.loadSnapshot(animals(4))).rejects.toThrow('The snapshot is not valid: more than the maximum of 3 animals.')
  expect(fake.snapshot()).toEqual(pets)
  expect(await fake.loadSnapshot(animals(3))).toBe(3)
})

it('refuses a new isolated store past maxTenants with 507', () => {
  const fake = createTestFake({ pets, isolate: true, maxTenants: 1 })
  expect(respond(fake, list('one')).status).toBe(200)
  const refused = respond(fake, list('two'))
  expect(refused.status).toBe(507)
  expect(JSON.parse(refused.body ?? '')).toMatchObject({ code: 'store_full', status: 507 })
})

it('names isolated stores by label for the controls, never by key', async () => {
  const fake = createTestFake({ pets, isolate: true })
  respond(fake, create('Labelled', 'key-a'))
  expect(fake.stores().map((store) => store.label)).toEqual(['tenant-1'])
  expect(fake.forLabel('tenant-1')?.snapshot().at(-1)?.name).toBe('Labelled')
  expect(fake.forLabel('tenant-9')).toBeUndefined()
  expect(fake.forLabel('tenant-1')?.store.counts()).toEqual({ available: 1, pending: 0, sold: 1, none: 1 })
})

it('marks forced in the journal exactly the answers a rule or Prefer chose, not the API\'s own refusals', () => {
  const fake = createTestFake({ pets })
  respond(fake, plainRequest({ headers: {} }))
  fake.force({ path: '/v1/pets/*', drop: true, times: 1 })
  fake.handle(plainRequest({ path: '/pets/1', headers: key('k') }))
  fake.force({ delayMs: 5, times: 1 })
  respond(fake, list())
  respond(fake, list())
  respond(fake, plainRequest({ headers: { ...key('k'), prefer: 'code=500' } }))
  expect(fake.journal().map((entry) => [entry.status, entry.forced])).toEqual([
    [401, false],
    [null, true],
    [200, true],
    [200, false],
    [500, true],
  ])
  const crowded = createTestFake({ pets, isolate: true, maxTenants: 1 })
  respond(crowded, list('first'))
  expect(respond(crowded, list('second')).status).toBe(507)
  expect(crowded.journal().map((entry) => [entry.status, entry.forced])).toEqual([[200, false], [507, false]])
})
