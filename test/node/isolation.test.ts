// Teams that share one `serve --isolate`, as parallel Playwright workers meet it: each key's store
// owns its animals, forced rules, latency and journal, and a control request with a key sees and
// changes that store alone; one without a key or label still means every store (docs/control-api.md).
import { coreOf } from '../../src/fake/assemble-fake.js'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { CONTROL_BASE, createControl } from '../../src/fake/control.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createFake, type Fake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { type CallResult, createApiClient, createControlClient } from '../support/api-client.js'
import { shippedPets } from '../support/fixtures.js'
import type { JournalEntry } from '../../src/store/journal-entry.js'
import type { ForcedRule } from '../../src/store/scope.js'

const pets = shippedPets('default')
let fake: Fake
let server: RunningServer

beforeAll(async () => {
  fake = createFake({ pets, isolate: true })
  server = await startServer({ app: createSite({ api: fake, control: createControl({ core: coreOf(fake) }) }) })
})
afterAll(() => server.close())
beforeEach(() => fake.reset())

const api = (key: string) => createApiClient(`${server.url}${API_BASE}`, key)
const control = (key?: string) => createControlClient(`${server.url}${CONTROL_BASE}`, key)
const rules = async (key?: string) => ((await control(key).call('/forced')).json as { rules: ForcedRule[] }).rules
const journal = async (key?: string) => ((await control(key).call('/journal', { query: 'limit=1000' })).json as { entries: JournalEntry[] }).entries
const statuses = (result: CallResult[]) => result.map((each) => each.status)

it('keeps each key\'s forced rule to its own store: another key can neither meet it, list it nor remove it', async () => {
  const [forcedA, forcedB] = await Promise.all([
    control('team-a').call('/forced', { method: 'POST', body: { status: 503 } }),
    control('team-b').call('/forced', { method: 'POST', body: { status: 502, path: '/pets' } }),
  ])
  const [idA, idB] = [(forcedA.json as ForcedRule).id, (forcedB.json as ForcedRule).id]
  expect(statuses(await Promise.all([api('team-a').authed('/pets'), api('team-b').authed('/pets'), api('team-c').authed('/pets')]))).toEqual([503, 502, 200])
  expect((await rules('team-a')).map((rule) => rule.id)).toEqual([idA])
  expect((await rules('team-c'))).toEqual([])
  // A's key cannot remove B's rule, whatever its id: for A it does not exist.
  const removed = await control('team-a').call(`/forced/${idB}`, { method: 'DELETE' })
  expect(removed.status).toBe(404)
  expect((removed.json as { code: string }).code).toBe('rule_not_found')
  expect((await control('team-a').call('/forced', { method: 'DELETE' })).status).toBe(204)
  expect(statuses(await Promise.all([api('team-a').authed('/pets'), api('team-b').authed('/pets')]))).toEqual([200, 502])
  // Without a key: every store's rules, each with its store's label; and every store's to remove.
  expect((await rules()).map((rule) => [rule.id, rule.status])).toEqual([[idB, 502]])
  expect((await control().call(`/forced/${idB}`, { method: 'DELETE' })).status).toBe(204)
  expect((await api('team-b').authed('/pets')).status).toBe(200)
})

it('delays only the answers of the key that set a latency, and shows each key its own setting', async () => {
  expect((await control('team-a').call('/latency', { method: 'PUT', body: { ms: 150 } })).json).toEqual({ ms: 150 })
  await Promise.all([api('team-a').authed('/pets?limit=1'), api('team-b').authed('/pets?limit=1')])
  expect((await journal('team-a')).map((entry) => entry.delayMs)).toEqual([150])
  expect((await journal('team-b')).map((entry) => entry.delayMs)).toEqual([0])
  expect((await control('team-b').call('/latency')).json).toEqual({})
  expect((await control().call('/latency')).json).toEqual({})
  // Set without a key, a latency is every store's, and the start of every store made later.
  await control().call('/latency', { method: 'PUT', body: { ms: 20 } })
  await Promise.all(['team-a', 'team-b', 'team-new'].map((key) => api(key).authed('/pets?limit=1')))
  expect((await journal()).slice(-3).map((entry) => entry.delayMs)).toEqual([20, 20, 20])
})

it('keeps each key\'s journal its own: a thousand requests of one key push out none of another\'s', async () => {
  await api('team-b').authed('/pets/1')
  for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 110 }, () => api('team-a').authed('/pets?limit=1')))
  const [a, b] = await Promise.all([journal('team-a'), journal('team-b')])
  expect(a).toHaveLength(1000)
  expect(new Set(a.map((entry) => entry.tenant)).size).toBe(1)
  expect(b.map((entry) => [entry.path, entry.tenant])).toEqual([['/v1/pets/1', b[0]?.tenant]])
  expect(b[0]?.tenant).not.toBe(a[0]?.tenant)
  // Cleared with A's key, A's journal alone is empty.
  await control('team-a').call('/journal', { method: 'DELETE' })
  expect(await journal('team-a')).toEqual([])
  expect(await journal('team-b')).toHaveLength(1)
  // Without a key, the journal is every store's, in the order requests came, the refused ones too.
  await api('').call('/pets')
  expect((await journal()).map((entry) => [entry.path, entry.status])).toEqual([['/v1/pets/1', 200], ['/v1/pets', 401]])
})

it('resets one key\'s store whole (animals, ids, rules, latency, journal) and leaves every other store as it was', async () => {
  for (const key of ['team-a', 'team-b']) {
    await api(key).authed('/pets', { method: 'POST', body: { name: `Pet of ${key}`, categoryId: 1 } })
    await control(key).call('/forced', { method: 'POST', body: { status: 500, path: '/pets/1' } })
    await control(key).call('/latency', { method: 'PUT', body: { ms: 5 } })
  }
  await control('team-a').call('/reset', { method: 'POST' })
  expect(await rules('team-a')).toEqual([])
  expect((await control('team-a').call('/latency')).json).toEqual({})
  expect(await journal('team-a')).toEqual([])
  const [a, b] = await Promise.all([api('team-a').authed('/pets?limit=100'), api('team-b').authed('/pets?limit=100')])
  expect(a.json).toEqual(pets)
  expect((b.json as unknown[]).length).toBe(pets.length + 1)
  expect((await rules('team-b')).map((rule) => rule.status)).toEqual([500])
  expect((await control('team-b').call('/latency')).json).toEqual({ ms: 5 })
  expect((await journal('team-b')).length).toBeGreaterThan(0)
  // The next animal of A takes the fixture's next id again.
  const created = await api('team-a').authed('/pets', { method: 'POST', body: { name: 'Again', categoryId: 1 } })
  expect((created.json as { id: number }).id).toBe(pets.length + 1)
  // A reset without a key is every store's, the rules set for every store included.
  await control().call('/forced', { method: 'POST', body: { status: 503, path: '/nowhere' } })
  await control().call('/reset', { method: 'POST' })
  expect(await rules()).toEqual([])
  expect(await journal()).toEqual([])
})
