import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RedisConnection } from '../../src/redis/connection.js'
import { createRedisApi, type RedisApi, type RedisApiOptions } from '../../src/redis/redis-api.js'
import { labelOf } from '../../src/redis/redis-tenants.js'
import { createKeyPolicy } from '../../src/service/auth.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { type ApiClient, createApiClient, TEST_KEY } from '../support/api-client.js'
import { shippedPets } from '../support/fixtures.js'
import { useRedis } from '../support/redis-harness.js'
import { hasRedis } from '../support/redis-server.js'
import { CONFORMANCE_CASES, CONFORMANCE_KEYS } from '../conformance/cases.js'

const pets = shippedPets('default')
const FIXTURE_MAX = Math.max(...pets.map((pet) => Number(pet.id)))
const SECRET = 'a'.repeat(32)
const IDLE_MS = 60_000

type Pet = { id: number; name: string }

// `serve --isolate --store`: one store per key in a real redis-server, two replicas (each its own
// connection and node:http server) on one clock that the tests move.
describe.skipIf(!hasRedis)('a store per key in Redis (--isolate), shared by the replicas', () => {
  const harness = useRedis()
  let clock = 1_000_000
  let prefixes = 0

  /** Two replicas on a prefix of their own, with these options. */
  async function replicas(options: Partial<RedisApiOptions> & { maxStores?: number; secret?: string } = {}, count = 2): Promise<{ apis: RedisApi[]; as: (replica: number, key: string) => ApiClient; prefix: string; connections: RedisConnection[] }> {
    const prefix = `t${++prefixes}:`
    const apis: RedisApi[] = []
    const urls: string[] = []
    const connections: RedisConnection[] = []
    for (let replica = 0; replica < count; replica++) {
      const connection = await harness.connect()
      connections.push(connection)
      const isolate = { secret: options.secret ?? SECRET, maxStores: options.maxStores ?? 1000, idleMs: IDLE_MS, now: () => clock }
      const api = createRedisApi({ connection, prefix, keys: createKeyPolicy([]), maxAnimals: 1_000_000, prefer: true, fixture: pets, isolate, ...options })
      expect(await api.start()).toEqual({ ok: true, value: false })
      apis.push(api)
      urls.push(`${(await harness.serve(createSite({ api }))).url}${API_BASE}`)
    }
    return { apis, as: (replica, key) => createApiClient(urls[replica] ?? '', key), prefix, connections }
  }

  const create = async (client: ApiClient, name: string): Promise<number> => {
    const made = await client.authed('/pets', { method: 'POST', body: { name, categoryId: 1, status: 'sold' } })
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    return (made.json as Pet).id
  }
  const names = async (client: ApiClient): Promise<string[]> => ((await client.authed('/pets', { query: 'limit=100' })).json as Pet[]).map((pet) => pet.name)

  describe('the conformance table, one key\'s store through the first replica', () => {
    let setup: Awaited<ReturnType<typeof replicas>>
    let firstNewId = 0
    beforeAll(async () => {
      setup = await replicas({ keys: createKeyPolicy(CONFORMANCE_KEYS) }, 1)
    })
    beforeEach(async () => {
      // The key's store is made by its first request; then back to the fixture, ids going on.
      expect((await setup.as(0, TEST_KEY).authed('/pets', { query: 'limit=1' })).status).toBe(200)
      expect((await setup.apis[0]?.reset())?.ok).toBe(true)
      firstNewId = Number(await setup.connections[0]?.command(['GET', `${setup.prefix}{${labelOf(SECRET, TEST_KEY)}}:last`])) + 1
    })
    it.each(CONFORMANCE_CASES.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) =>
      testCase.run({ api: setup.as(0, TEST_KEY), pets, basePath: API_BASE, firstNewId }),
    )
  })

  it('gives each key a store of its own, the same through every replica, each made from the fixture with ids of its own', async () => {
    const { as } = await replicas()
    const made = await create(as(0, 'team-a'), 'Only for a')
    expect(made).toBe(FIXTURE_MAX + 1)
    const found = await as(1, 'team-a').authed(`/pets/${made}`)
    expect(found.status).toBe(200)
    expect((found.json as Pet).name).toBe('Only for a')
    expect((await as(1, 'team-b').authed(`/pets/${made}`)).status).toBe(404)
    expect(await names(as(0, 'team-b'))).toEqual(pets.map((pet) => pet.name))
    expect(await create(as(1, 'team-b'), 'Only for b')).toBe(FIXTURE_MAX + 1)
    expect(await names(as(0, 'team-a'))).toEqual([...pets.map((pet) => pet.name), 'Only for a'])
  })

  it('makes a new key\'s store once when its first requests arrive together through both replicas', async () => {
    const { as, apis } = await replicas()
    const made = await Promise.all(Array.from({ length: 30 }, (_, i) => create(as(i % 2, 'team-burst'), `Burst ${i}`)))
    expect([...made].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => FIXTURE_MAX + 1 + i))
    expect((await names(as(1, 'team-burst'))).length).toBe(pets.length + 30)
    expect(await apis[0]?.counts()).toEqual({ animals: pets.length + 30, stores: 1 })
  })

  it('keeps no key in Redis: a store is known by a keyed hash of its key, and another secret finds another store', async () => {
    const key = 'team-secret-key-5d1f'
    const { as, prefix, connections } = await replicas()
    await create(as(0, key), 'Hidden')
    const connection = connections[0] as RedisConnection
    const names = (await connection.command(['KEYS', `${prefix}*`])) as string[]
    expect(names.some((name) => name.includes(labelOf(SECRET, key)))).toBe(true)
    const dump = JSON.stringify(await Promise.all(names.map(async (name) => [name, await connection.command(['DUMP', name])])))
    expect(dump).not.toContain(key)
    expect(dump).not.toContain(SECRET)
    const [other] = (await replicas({ secret: 'b'.repeat(32) }, 1)).apis
    expect(other).toBeDefined()
    expect(labelOf('b'.repeat(32), key)).not.toBe(labelOf(SECRET, key))
    expect(labelOf(SECRET, key)).toMatch(/^key-[0-9a-f]{32}$/)
  })

  it('keeps every team\'s animals when the replicas start again', async () => {
    const { as, prefix } = await replicas()
    const ids = { a: await create(as(0, 'team-a'), 'Kept for a'), b: await create(as(1, 'team-b'), 'Kept for b') }
    // A replica started anew knows no store: it finds each in Redis.
    const connection = await harness.connect()
    const again = createRedisApi({ connection, prefix, keys: createKeyPolicy([]), maxAnimals: 1_000_000, prefer: true, fixture: [], isolate: { secret: SECRET, maxStores: 1000, idleMs: IDLE_MS, now: () => clock } })
    expect(await again.start()).toEqual({ ok: true, value: false })
    const server = await harness.serve(createSite({ api: again }))
    const client = (key: string) => createApiClient(`${server.url}${API_BASE}`, key)
    expect(((await client('team-a').authed(`/pets/${ids.a}`)).json as Pet).name).toBe('Kept for a')
    expect(((await client('team-b').authed(`/pets/${ids.b}`)).json as Pet).name).toBe('Kept for b')
    expect(await again.counts()).toEqual({ animals: 2 * pets.length + 2, stores: 2 })
  })

  it('refuses a new key past the most stores with 507, drops stores idle through every replica to make room, and gives their animals back', async () => {
    const { as, apis } = await replicas({ maxStores: 2 })
    await create(as(0, 'k1'), 'One')
    await create(as(1, 'k2'), 'Two')
    const refused = await as(0, 'k3').authed('/pets')
    expect(refused.status).toBe(507)
    expect(refused.json).toMatchObject({ code: 'store_full', message: expect.stringContaining('maximum of 2 stores') })
    // The key's store comes before its Prefer, as in memory.
    expect((await as(1, 'k3').authed('/pets', { headers: { prefer: 'code=503' } })).status).toBe(507)
    expect((await as(1, 'k2').authed('/pets', { headers: { prefer: 'code=503' } })).status).toBe(503)
    // k1 is used again through replica 0, which made it, after a quarter of the idle time: it tells Redis.
    clock += IDLE_MS / 4
    expect((await as(0, 'k1').authed('/pets')).status).toBe(200)
    clock += (IDLE_MS * 3) / 4 + 1
    // Through replica 0, k3 finds k2 idle (last used an idle time ago), dropped, and k1 kept.
    expect(await names(as(0, 'k3'))).toEqual(pets.map((pet) => pet.name))
    expect(await apis[1]?.counts()).toEqual({ animals: 2 * pets.length + 1, stores: 2 })
    expect(await names(as(0, 'k1'))).toContain('One')
    expect((await as(1, 'k2').authed('/pets')).status).toBe(507)
  })

  it('makes a dropped store again from the fixture on its key\'s next request, through the replica that knew it', async () => {
    const { as } = await replicas()
    await create(as(0, 'k1'), 'Made')
    clock += IDLE_MS + 1
    // A new key through replica 1 drops k1, idle for longer than the idle time.
    expect((await as(1, 'k-new').authed('/pets')).status).toBe(200)
    expect(await names(as(0, 'k1'))).toEqual(pets.map((pet) => pet.name))
  })

  it('answers 507 for a new key whose store the budget has no room for, naming it, and keeps the other stores', async () => {
    const { as } = await replicas({ maxAnimals: 2 * pets.length + 1 })
    await create(as(0, 'k1'), 'Fits')
    await as(1, 'k2').authed('/pets')
    const full = await as(0, 'k2').authed('/pets', { method: 'POST', body: { name: 'No room', categoryId: 1 } })
    expect(full.status).toBe(507)
    const refused = await as(1, 'k3').authed('/pets')
    expect(refused.status).toBe(507)
    expect(refused.json).toMatchObject({ code: 'store_full', message: `No room for another store of ${pets.length} animals: every store together holds ${2 * pets.length + 1} of at most ${2 * pets.length + 1} (--max-animals).` })
    expect(await names(as(1, 'k1'))).toContain('Fits')
  })

  it('resets every store in use to the fixture, ids going on after the highest each handed out', async () => {
    const { as, apis } = await replicas()
    const before = await create(as(0, 'k1'), 'Gone after reset')
    await as(1, 'k2').authed('/pets')
    expect((await apis[1]?.reset())?.ok).toBe(true)
    expect(await names(as(0, 'k1'))).toEqual(pets.map((pet) => pet.name))
    expect(await create(as(1, 'k1'), 'After reset')).toBe(before + 1)
    expect(await apis[0]?.counts()).toEqual({ animals: 2 * pets.length + 1, stores: 2 })
  })
})
