import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RedisConnection } from '../../src/redis/connection.js'
import { labelOf } from '../../src/redis/tenants.js'
import type { Pet as AnyPet } from '../../src/spec/animals-service.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { type ApiClient, createApiClient, TEST_KEY } from '../support/api-client.js'
import { type FakeSetup, redisReplica } from '../support/fake-over.js'
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
  type Replicas = { apis: Awaited<ReturnType<typeof redisReplica>>[]; as: (replica: number, key: string) => ApiClient; prefix: string; connections: RedisConnection[] }
  async function replicas(options: Partial<FakeSetup> & { fixture?: readonly AnyPet[]; maxAnimals?: number } = {}, count = 2): Promise<Replicas> {
    const prefix = `t${++prefixes}:`
    const apis: Replicas['apis'] = []
    const urls: string[] = []
    const connections: RedisConnection[] = []
    for (let replica = 0; replica < count; replica++) {
      const connection = await harness.connect()
      connections.push(connection)
      const made = await redisReplica(connection, prefix, { pets: options.fixture ?? pets, isolate: true, secret: SECRET, idleMs: IDLE_MS, now: () => clock, limits: { maxAnimals: options.maxAnimals ?? 1_000_000 }, ...options })
      expect(await made.store.start()).toEqual({ ok: true, value: false })
      apis.push(made)
      urls.push(`${(await harness.serve(createSite({ api: made.core }))).url}${API_BASE}`)
    }
    return { apis, as: (replica, key) => createApiClient(urls[replica] ?? '', key), prefix, connections }
  }
  const reset = async (setup: Replicas, replica: number): Promise<void> => void (await setup.apis[replica]?.core.controls.reset(undefined))

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
      setup = await replicas({ keys: CONFORMANCE_KEYS }, 1)
    })
    beforeEach(async () => {
      // The key's store is made by its first request; then back to the fixture, ids going on.
      expect((await setup.as(0, TEST_KEY).authed('/pets', { query: 'limit=1' })).status).toBe(200)
      await reset(setup, 0)
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
    expect(await apis[0]?.store.health()).toEqual({ animals: pets.length + 30, stores: 1 })
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
    const again = await redisReplica(await harness.connect(), prefix, { pets: [], isolate: true, secret: SECRET, idleMs: IDLE_MS, now: () => clock })
    expect(await again.store.start()).toEqual({ ok: true, value: false })
    const server = await harness.serve(createSite({ api: again.core }))
    const client = (key: string) => createApiClient(`${server.url}${API_BASE}`, key)
    expect(((await client('team-a').authed(`/pets/${ids.a}`)).json as Pet).name).toBe('Kept for a')
    expect(((await client('team-b').authed(`/pets/${ids.b}`)).json as Pet).name).toBe('Kept for b')
    expect(await again.store.health()).toEqual({ animals: 2 * pets.length + 2, stores: 2 })
  })

  it('refuses a new key past the most stores with 507, drops stores idle through every replica to make room, and gives their animals back', async () => {
    const { as, apis } = await replicas({ maxStores: 2 })
    await create(as(0, 'k1'), 'One')
    await create(as(1, 'k2'), 'Two')
    const refused = await as(0, 'k3').authed('/pets')
    expect(refused.status).toBe(507)
    expect(refused.json).toMatchObject({ code: 'store_full', message: 'The fake holds its maximum of 2 isolated stores; stores unused for 1 minutes are dropped, or reset it.' })
    // The key's store comes before a bad parameter and its Prefer, as in memory.
    expect((await as(1, 'k3').authed('/pets', { query: 'limit=0' })).status).toBe(507)
    expect((await as(1, 'k3').authed('/pets', { headers: { prefer: 'code=503' } })).status).toBe(507)
    expect((await as(1, 'k2').authed('/pets', { headers: { prefer: 'code=503' } })).status).toBe(503)
    // k1 is used again through replica 0, which made it, after a quarter of the idle time: it tells Redis.
    clock += IDLE_MS / 4
    expect((await as(0, 'k1').authed('/pets')).status).toBe(200)
    clock += (IDLE_MS * 3) / 4 + 1
    // Through replica 0, k3 finds k2 idle (last used an idle time ago), dropped, and k1 kept.
    expect(await names(as(0, 'k3'))).toEqual(pets.map((pet) => pet.name))
    expect(await apis[1]?.store.health()).toEqual({ animals: 2 * pets.length + 1, stores: 2 })
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
    expect(refused.json).toMatchObject({ code: 'store_full', message: `No room for another store of ${pets.length} animals: every store together holds ${2 * pets.length + 1} of at most ${2 * pets.length + 1}.` })
    expect(await names(as(1, 'k1'))).toContain('Fits')
  })

  it('resets every store in use to the fixture, ids going on after the highest each handed out', async () => {
    const setup = await replicas()
    const { as, apis } = setup
    const before = await create(as(0, 'k1'), 'Gone after reset')
    await as(1, 'k2').authed('/pets')
    await reset(setup, 1)
    expect(await names(as(0, 'k1'))).toEqual(pets.map((pet) => pet.name))
    expect(await create(as(1, 'k1'), 'After reset')).toBe(before + 1)
    expect(await apis[0]?.store.health()).toEqual({ animals: 2 * pets.length + 1, stores: 2 })
  })
  describe('what a request asks of Redis', () => {
    /** The name of a script by what it does. */
    const scriptOf = (source: string): string =>
      source.includes('RPUSH') ? 'journal' : source.includes("return {'stale'}") ? 'step' : source.includes("redis.call('HGETALL', KEYS[4 * i + 2])") ? 'read rules' : source.includes('local had_chars') && !source.includes('RENAME') ? 'room' : source.includes('RENAME') ? 'swap' : source.includes("redis.call('ZREM'") ? 'drop' : source.includes('ZSCORE') ? 'touch' : 'another script'
    async function counted(options: { idleMs: number; onRange?: (labels: string[]) => Promise<void> }) {
      const connection = await harness.connect()
      const log: string[] = []
      const call: RedisConnection = {
        ...connection,
        async command(args) {
          log.push(args[0] ?? '')
          const reply = await connection.command(args)
          if (args[0] === 'ZRANGE' && args.includes('BYSCORE')) await options.onRange?.(reply as string[])
          return reply
        },
        script(source, keys, args) {
          log.push(scriptOf(source))
          return connection.script(source, keys, args)
        },
      }
      const prefix = `n${++prefixes}:`
      const { core } = await redisReplica(call, prefix, { pets, isolate: true, secret: SECRET, idleMs: options.idleMs, now: () => clock })
      const base = `${(await harness.serve(createSite({ api: core }))).url}${API_BASE}`
      /** What one list request through this replica sent to Redis, at `at` ms after the start. */
      const asked = async (key: string, at: number, start: number): Promise<string[]> => {
        clock = start + at
        log.length = 0
        expect((await createApiClient(base, key).authed('/pets', { query: 'limit=1' })).status).toBe(200)
        return [...log]
      }
      return { asked, log, connection, prefix, base }
    }

    it('asks nothing more than one step of a store seen in use and its journal entry, tells Redis of its use every quarter of the idle time, and looks for idle stores once a minute', async () => {
      const { asked, log, base } = await counted({ idleMs: 120_000 })
      const start = clock
      expect(await asked('a', 0, start)).toEqual(expect.arrayContaining(['ZRANGE', 'touch', 'room', 'swap', 'read rules', 'step', 'journal']))
      expect(await asked('a', 29_999, start)).toEqual(['step', 'journal'])
      expect(await asked('a', 30_000, start)).toEqual(['touch', 'step', 'journal'])
      expect(await asked('b', 40_000, start)).toEqual(expect.arrayContaining(['touch', 'room', 'swap', 'read rules', 'step', 'journal']))
      // Two stores known at once: neither is forgotten for the other.
      expect(await asked('a', 59_999, start)).toEqual(['step', 'journal'])
      expect(await asked('b', 59_999, start)).toEqual(['step', 'journal'])
      // A minute after the last look, the next request looks for idle stores first.
      expect(await asked('b', 60_000, start)).toEqual(['ZRANGE', 'step', 'journal'])
      expect(await asked('a', 60_001, start)).toEqual(['touch', 'step', 'journal'])
      expect(await asked('a', 119_999, start)).toEqual(['touch', 'step', 'journal'])
      // A new key's requests arriving together make its store once, after the next look.
      clock = start + 120_000
      log.length = 0
      const answers = await Promise.all(Array.from({ length: 5 }, () => createApiClient(base, 'c').authed('/pets', { query: 'limit=1' })))
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
      expect(log.filter((name) => !['step', 'journal', 'HSET', 'ZADD', 'EXPIRE', 'read rules'].includes(name))).toEqual(['ZRANGE', 'touch', 'room', 'swap'])
    })

    it('keeps a store that a request used between the look for idle stores and its drop', async () => {
      let use: (() => Promise<unknown>) | undefined
      const replica = await counted({ idleMs: 60_000, onRange: async (labels) => void (labels.length > 0 && (await use?.())) })
      const start = clock
      await replica.asked('kept', 0, start)
      const made = await createApiClient(replica.base, 'kept').authed('/pets', { method: 'POST', body: { name: 'Used meanwhile', categoryId: 1 } })
      expect(made.status).toBe(201)
      // Another replica uses it between the look and the drop.
      use = () => replica.connection.command(['ZADD', `${replica.prefix}stores`, String(clock), labelOf(SECRET, 'kept')])
      // The next look finds "kept" idle; another replica uses it before the drop, which then leaves it.
      await replica.asked('another', 60_001, start)
      expect((await createApiClient(replica.base, 'kept').authed(`/pets/${(made.json as Pet).id}`)).status).toBe(200)
    })
  })

  it('says so when a reset cannot renew a store within the budget, and renews none after it', async () => {
    const two = pets.slice(0, 2)
    const setup = await replicas({ fixture: two, maxAnimals: 4 })
    const { as, apis } = setup
    await as(0, 'a').authed('/pets')
    await as(0, 'b').authed('/pets')
    // a's store emptied leaves room for c's; a reset then finds no room to give a its animals back.
    expect(await apis[0]?.store.animals.replace(labelOf(SECRET, 'a'), [])).toEqual({ ok: true, value: undefined })
    await as(1, 'c').authed('/pets')
    await expect(reset(setup, 1)).rejects.toMatchObject({ code: 'store_full' })
  })
})
