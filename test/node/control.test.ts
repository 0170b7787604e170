import { coreOf } from '../../src/fake/assemble-fake.js'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { CONTROL_BASE, createControl } from '../../src/fake/control.js'
import { parseFixture } from '../../src/fake/fixture.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createFake, type Fake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createApiClient, createControlClient, TEST_KEY } from '../support/api-client.js'
import { expectError } from '../support/expectations.js'
import { shippedPets } from '../support/fixtures.js'
import type { Pet } from '../../src/spec/animals-service.js'

const pets = shippedPets('default')
let fake: Fake
let server: RunningServer

beforeAll(async () => {
  fake = createFake({ pets, keys: [TEST_KEY], maxAnimals: 100 })
  server = await startServer({ app: createSite({ api: fake, control: createControl({ core: coreOf(fake), document: 'openapi: 3.0.3' }) }) })
})
afterAll(() => server.close())
beforeEach(() => {
  fake.reset()
  fake.clearJournal()
  fake.unforce()
  fake.setLatency({})
})

const api = () => createApiClient(`${server.url}${API_BASE}`)
const control = () => createControlClient(`${server.url}${CONTROL_BASE}`, TEST_KEY)
const post = (path: string, body: unknown) => control().call(path, { method: 'POST', body })
const listAll = async () => (await api().authed('/pets', { query: 'limit=100' })).json as Pet[]

it('POST /__control/reset returns the store to the fixture', async () => {
  await api().authed('/pets', { method: 'POST', body: { name: 'Gone', categoryId: 1 } })
  const reset = await post('/reset', undefined)
  expect(reset.status).toBe(200)
  expect(reset.json).toMatchObject({ animals: pets.length })
  expect(await listAll()).toEqual(pets)
})

it('POST /__control/seed adds generated animals after the highest id, reproducibly', async () => {
  const seeded = await post('/seed', { count: 5, seed: 7 })
  expect(seeded.status).toBe(201)
  expect(seeded.json).toEqual({ added: 5, firstId: pets.length + 1, lastId: pets.length + 5, animals: pets.length + 5 })
  const first = (await listAll()).slice(pets.length)
  await post('/reset', undefined)
  await post('/seed', { count: 5, seed: 7 })
  expect((await listAll()).slice(pets.length)).toEqual(first)
  expect(first.map((pet) => pet.name).join()).not.toBe('')
})

it('POST /__control/seed refuses bad input with 400 and a count past the maximum with 507, adding nothing', async () => {
  for (const body of [{}, { count: 0 }, { count: 'ten' }, { count: 5, colour: 'red' }, { count: 5, statusMix: { lost: 1 } }, [5]]) {
    expectError(await post('/seed', body), 400, 'invalid_body')
  }
  expectError(await control().call('/seed', { method: 'POST', body: '{"count":', headers: { 'content-type': 'application/json' } }), 400, 'malformed_json')
  expectError(await post('/seed', { count: 71 }), 507, 'store_full')
  expect(await listAll()).toHaveLength(pets.length)
})

it('GET /__control/snapshot exports a loadable fixture; PUT imports one', async () => {
  const body = '{"name":"Saved","categoryId":9007199254740993}'
  await api().authed('/pets', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
  const exported = await control().call('/snapshot')
  expect(exported.status).toBe(200)
  expect(exported.text).toContain('"categoryId":9007199254740993')
  const parsed = parseFixture(exported.text)
  expect(parsed.ok && parsed.value).toHaveLength(pets.length + 1)
  await post('/reset', undefined)
  const imported = await control().call('/snapshot', { method: 'PUT', body: exported.text, headers: { 'content-type': 'application/json' } })
  expect(imported.json).toEqual({ animals: pets.length + 1 })
  expect((await control().call('/snapshot')).text).toBe(exported.text)
})

it('PUT /__control/snapshot refuses a bad snapshot whole, naming the record and field', async () => {
  const bad = JSON.stringify([{ id: 1, name: 'Fine', categoryId: 1 }, { id: 2, name: 7, categoryId: 1 }])
  const refused = await control().call('/snapshot', { method: 'PUT', body: bad, headers: { 'content-type': 'application/json' } })
  expectError(refused, 400, 'invalid_body', "record 2 (index 1): Field 'name' must be a string")
  const duplicate = JSON.stringify([{ id: 1, name: 'A', categoryId: 1 }, { id: 1, name: 'B', categoryId: 1 }])
  expectError(await control().call('/snapshot', { method: 'PUT', body: duplicate, headers: { 'content-type': 'application/json' } }), 400, 'invalid_body', "'id'")
  expect(await listAll()).toEqual(pets)
})

it('GET /__control/journal shows what the app sent, filtered, credentials redacted; DELETE clears it', async () => {
  await api().authed('/pets', { query: 'status=sold&limit=3' })
  await api().authed('/pets', { method: 'POST', body: { name: 'Journaled', categoryId: 2 } })
  await api().call('/pets/1')
  const all = (await control().call('/journal')).json as { entries: Record<string, unknown>[] }
  expect(all.entries.map((entry) => [entry.method, entry.path, entry.query, entry.status])).toEqual([
    ['GET', '/v1/pets', 'status=sold&limit=3', 200],
    ['POST', '/v1/pets', '', 201],
    ['GET', '/v1/pets/1', '', 401],
  ])
  expect(typeof all.entries[0]?.time).toBe('string')
  expect(JSON.stringify(all)).not.toContain(TEST_KEY)
  const posts = (await control().call('/journal', { query: 'method=POST&path=/pets' })).json as { entries: { body: string }[] }
  expect(posts.entries.map((entry) => JSON.parse(entry.body))).toEqual([{ name: 'Journaled', categoryId: 2 }])
  expect(((await control().call('/journal', { query: 'status=401' })).json as { entries: unknown[] }).entries).toHaveLength(1)
  expectError(await control().call('/journal', { query: 'status=abc' }), 400, 'invalid_parameter', 'status')
  expectError(await control().call('/journal', { query: 'colour=red' }), 400, 'invalid_parameter', 'colour')
  expect((await control().call('/journal', { method: 'DELETE' })).status).toBe(204)
  expect((await control().call('/journal')).json).toEqual({ entries: [], next: 0, more: false, total: 0 })
})

it('POST /__control/forced makes the next N matching requests fail with a valid Error body', async () => {
  const added = await post('/forced', { method: 'GET', path: '/pets', status: 500, times: 2 })
  expect(added.status).toBe(201)
  expect(added.json).toMatchObject({ id: expect.any(Number), method: 'GET', path: '/pets', status: 500, remaining: 2 })
  expect((await api().authed('/pets/1')).status).toBe(200)
  expectError(await api().authed('/pets'), 500, 'internal_error')
  expectError(await api().authed('/pets'), 500, 'internal_error')
  expect((await api().authed('/pets')).status).toBe(200)
  expect((await control().call('/forced')).json).toEqual({ rules: [] })
})

it('forces a delay and a dropped connection; rules can be listed and removed one by one', async () => {
  await post('/forced', { path: '/pets/*', delayMs: 300, times: 1 })
  const started = performance.now()
  expect((await api().authed('/pets/1')).status).toBe(200)
  expect(performance.now() - started).toBeGreaterThanOrEqual(250)
  const drop = (await post('/forced', { method: 'GET', path: '/pets/2', drop: true })).json as { id: number }
  await expect(api().authed('/pets/2')).rejects.toThrow(/fetch failed/)
  expect(((await control().call('/forced')).json as { rules: unknown[] }).rules).toHaveLength(1)
  expect((await control().call(`/forced/${drop.id}`, { method: 'DELETE' })).status).toBe(204)
  expectError(await control().call(`/forced/${drop.id}`, { method: 'DELETE' }), 404, 'rule_not_found')
  expect((await api().authed('/pets/2')).status).toBe(200)
  await post('/forced', { status: 418, code: 'teapot', message: 'Short and stout.' })
  expect((await api().authed('/pets')).json).toEqual({ code: 'teapot', message: 'Short and stout.', status: 418 })
  expect((await control().call('/forced', { method: 'DELETE' })).status).toBe(204)
  expect((await api().authed('/pets')).status).toBe(200)
})

it('refuses bad forced rules with 400', async () => {
  for (const body of [{}, { status: 200 }, { status: 503, drop: true }, { status: 503, path: 'pets' }, { delayMs: -1 }, { stauts: 503 }]) {
    expectError(await post('/forced', body), 400, 'invalid_body')
  }
  expect((await control().call('/forced')).json).toEqual({ rules: [] })
})

it('PUT /__control/latency holds every API answer back; GET shows it; bad settings are 400', async () => {
  expect((await control().call('/latency', { method: 'PUT', body: { ms: 300 } })).json).toEqual({ ms: 300 })
  expect((await control().call('/latency')).json).toEqual({ ms: 300 })
  const started = performance.now()
  await api().authed('/pets')
  expect(performance.now() - started).toBeGreaterThanOrEqual(250)
  expect(fake.journal().at(-1)?.delayMs).toBe(300)
  expect((await control().call('/latency', { method: 'PUT', body: { minMs: 10, maxMs: 20 } })).json).toEqual({ minMs: 10, maxMs: 20 })
  for (const body of [{ ms: -5 }, { minMs: 9, maxMs: 1 }, { ms: 1, minMs: 1, maxMs: 2 }, { seconds: 1 }, ['fast']]) {
    expectError(await control().call('/latency', { method: 'PUT', body }), 400, 'invalid_body')
  }
  expect((await control().call('/latency', { method: 'PUT', body: {} })).json).toEqual({})
})

it('answers 404 for unknown control paths, 405 with Allow for other methods, and serves its document', async () => {
  expectError(await control().call('/nothing'), 404, 'route_not_found')
  const wrong = await control().call('/reset')
  expectError(wrong, 405, 'method_not_allowed')
  expect(wrong.headers.get('allow')).toBe('POST')
  expect((await control().call('/openapi.yaml')).text).toBe('openapi: 3.0.3')
  expect(((await control().call('/')).json as { animals: number }).animals).toBe(pets.length)
})

it('GET /__control/animals pages the store by status with counts; GET /__control/stores lists stores', async () => {
  const sold = pets.filter((pet) => pet.status === 'sold')
  const page = (await control().call('/animals', { query: 'status=sold&offset=1&limit=2' })).json as Record<string, unknown>
  expect(page).toMatchObject({ total: sold.length, offset: 1, limit: 2, animals: sold.slice(1, 3) })
  const counts = page.counts as Record<string, number>
  expect(counts.sold).toBe(sold.length)
  expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(pets.length)
  expect(((await control().call('/animals')).json as { animals: unknown[] }).animals).toEqual(pets.slice(0, 20))
  expectError(await control().call('/animals', { query: 'limit=0' }), 400, 'invalid_parameter', 'limit')
  expectError(await control().call('/animals', { query: 'status=lost' }), 400, 'invalid_parameter', 'status')
  expect((await control().call('/stores')).json).toEqual({
    isolated: false,
    stores: [{ label: 'shared', animals: pets.length, counts }],
  })
})
