import { describe, expect, it } from 'vitest'
import { createFake } from '../../src/create-fake.js'
import { MAX_NAME_SCAN, SEARCH_CHARS } from '../../src/fake/animal-search.js'
import { createControl } from '../../src/fake/control.js'
import { READ_CHARS } from '../../src/redis/animals.js'
import type { RedisConnection } from '../../src/redis/connection.js'
import { createSite } from '../../src/site/site.js'
import { redisReplica } from '../support/fake-over.js'
import { shippedPets } from '../support/fixtures.js'
import { useRedis } from '../support/redis-harness.js'
import { hasRedis } from '../support/redis-server.js'

const pets = shippedPets('default')
const FIXTURE_MAX = Math.max(...pets.map((pet) => Number(pet.id)))
const KEY = 'ops-key'
const TOKEN = 'control-token-1'
type Pet = { id: number; name: string; status?: string }

// The control API of `serve --store` over a real redis-server: two replicas, each its own
// connection and node:http server, acting on the store they share.
describe.skipIf(!hasRedis)('the control API over a store in Redis', () => {
  const harness = useRedis()
  let prefixes = 0

  type Setup = { readonly urls: readonly string[]; readonly control: (replica: number, path: string, init?: RequestInit & { key?: string | null; token?: string | null }) => Promise<Response>; readonly list: (replica: number, key?: string) => Promise<Pet[]> }

  type Options = { maxAnimals?: number; token?: string; isolate?: boolean; anyKey?: boolean; random?: () => number; wrap?: (connection: RedisConnection) => RedisConnection; timeoutMs?: number }
  async function replicas(options: Options = {}): Promise<Setup> {
    const prefix = `c${++prefixes}:`
    const urls: string[] = []
    for (let replica = 0; replica < 2; replica++) {
      const connected = await harness.connect(options.timeoutMs ?? 500)
      const connection = options.wrap?.(connected) ?? connected
      const keys = options.isolate === true || options.anyKey === true ? [] : [KEY]
      const { core } = await redisReplica(connection, prefix, { pets, keys, limits: { maxAnimals: options.maxAnimals ?? 1_000_000 }, isolate: options.isolate === true, idleMs: 60_000, now: Date.now, random: options.random ?? Math.random })
      const control = createControl({ core, ...(options.token === undefined ? {} : { token: options.token }) })
      urls.push((await harness.serve(createSite({ api: core, control }))).url)
    }
    return {
      urls,
      control: (replica, path, { key = KEY, token = options.token ?? null, ...init } = {}) =>
        fetch(`${urls[replica]}/__control${path}`, {
          ...init,
          headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(token === null ? {} : { 'x-control-token': token }) },
        }),
      list: async (replica, key = KEY) => (await (await fetch(`${urls[replica]}/v1/pets?limit=100`, { headers: { authorization: `Bearer ${key}` } })).json()) as Pet[],
    }
  }

  it('copies many animals or entries through a connection of their own, which no request, entry or /healthz waits behind; /healthz says when it does not answer', async () => {
    const [main, other] = [await harness.connect(500), await harness.connect(500)]
    const through: string[] = []
    const tapped = (name: string, connection: RedisConnection): RedisConnection => ({
      ...connection,
      command: (args) => (through.push(name), connection.command(args)),
      script: (source, keys, args) => (through.push(name), connection.script(source, keys, args)),
    })
    let answering = true
    const reads = { ...tapped('reads', other), answering: () => answering && other.answering() }
    const { core, store } = await redisReplica(tapped('requests', main), `c${++prefixes}:`, { pets, keys: [KEY] }, reads)
    const { url } = await harness.serve(createSite({ api: core, control: createControl({ core }) }))
    const ask = async (path: string, init: RequestInit = {}) => (await fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } })).status
    const connectionsOf = async (what: () => Promise<unknown>) => {
      through.length = 0
      await what()
      return [...new Set(through)]
    }
    expect(await connectionsOf(async () => [await ask('/v1/pets?limit=5'), await ask('/v1/pets/1'), await ask('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Noted', categoryId: 1 }) }), await store.health()])).toEqual(['requests'])
    for (const path of ['/__control/animals?name=a', '/__control/animals?limit=20', '/__control/snapshot', '/__control/journal?limit=10']) {
      expect(await connectionsOf(() => ask(path))).toContain('reads')
    }
    answering = false
    await expect(store.health()).rejects.toMatchObject({ name: 'StoreUnavailable', message: expect.stringContaining('control reads') })
    expect(await ask('/v1/pets/1')).toBe(200)
  })

  it('seeds through one replica what every replica lists, the same animals as the in-memory fake seeds with the same seed, 1,000 per step and past it', async () => {
    const { control, list } = await replicas()
    for (const count of [1000, 1001]) {
      const before = (await (await control(1, '/')).json()) as { animals: number }
      const seeded = await control(0, '/seed', { method: 'POST', body: JSON.stringify({ count, seed: 7 }) })
      expect(seeded.status).toBe(201)
      const body = (await seeded.json()) as { added: number; firstId: number; lastId: number; animals: number }
      expect(body).toEqual({ added: count, firstId: expect.any(Number), lastId: body.firstId + count - 1, animals: before.animals + count })
      const snapshot = JSON.parse(await (await control(1, '/snapshot')).text()) as Pet[]
      expect(snapshot).toHaveLength(body.animals)
      expect(snapshot.at(-1)?.id).toBe(body.lastId)
    }
    const fake = createFake({ pets })
    await fake.seed(1000, { seed: 7 })
    const inMemory = fake.snapshot().slice(pets.length)
    const listed = (await list(1)).slice(pets.length)
    expect(listed.map(({ name, status }) => ({ name, status }))).toEqual(inMemory.slice(0, listed.length).map(({ name, status }) => ({ name, status })))
    expect(listed[0]?.id).toBe(FIXTURE_MAX + 1)
  })

  it('refuses a seed past --max-animals whole with 507, adding nothing', async () => {
    const { control, list } = await replicas({ maxAnimals: pets.length + 10 })
    const refused = await control(0, '/seed', { method: 'POST', body: JSON.stringify({ count: 11 }) })
    expect(refused.status).toBe(507)
    expect(await refused.json()).toMatchObject({ code: 'store_full', message: expect.stringContaining(`no room for 11 more animals: it holds ${pets.length} of at most ${pets.length + 10}`) })
    expect(await list(1)).toHaveLength(pets.length)
    expect((await control(1, '/seed', { method: 'POST', body: JSON.stringify({ count: 10 }) })).status).toBe(201)
    expect(await list(0)).toHaveLength(pets.length + 10)
  })

  it('loads a snapshot through one replica that the other answers from at once, refuses a bad one keeping the store, and resets to the fixture with ids going on', async () => {
    const { control, list, urls } = await replicas()
    const loaded = [{ id: 5, name: 'Five', categoryId: 1, status: 'sold' }, { id: 40, name: 'Forty', categoryId: 2 }]
    const put = await control(0, '/snapshot', { method: 'PUT', body: JSON.stringify(loaded) })
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual({ animals: 2 })
    expect(await list(1)).toEqual(loaded)
    expect(JSON.parse(await (await control(1, '/snapshot')).text())).toEqual(loaded)
    const bad = await control(1, '/snapshot', { method: 'PUT', body: '[{"id":1,"name":"No category"}]' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'invalid_body', message: expect.stringContaining('The snapshot is not valid: record 1 (index 0)') })
    expect(await list(0)).toEqual(loaded)
    const reset = await control(1, '/reset', { method: 'POST' })
    expect(await reset.json()).toEqual({ animals: pets.length, journal: 0, forcedRules: 0 })
    expect(await list(0)).toEqual(pets)
    const made = await fetch(`${urls.at(-1)}/v1/pets`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"name":"After","categoryId":1}' })
    expect(((await made.json()) as Pet).id).toBe(41)
  })

  it('guards every control with the key or the token, says no pact is recorded, and answers 503 while Redis is down', async () => {
    const open = await replicas()
    expect((await open.control(0, '/reset', { method: 'POST', key: null })).status).toBe(401)
    expect((await open.control(0, '/reset', { method: 'POST', key: 'wrong' })).status).toBe(401)
    const guarded = await replicas({ token: TOKEN })
    expect((await guarded.control(0, '/snapshot', { token: null })).status).toBe(401)
    expect((await guarded.control(0, '/snapshot', { token: 'wrong' })).status).toBe(401)
    expect((await guarded.control(0, '/snapshot')).status).toBe(200)
    const pact = await open.control(1, '/pact', { method: 'POST' })
    expect(pact.status).toBe(404)
    expect(await pact.json()).toMatchObject({ code: 'route_not_found', message: expect.stringMatching(/^No pact is being recorded: /) })
    const wrongMethod = await open.control(1, '/snapshot', { method: 'DELETE' })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('GET, PUT')
    expect(await (await open.control(1, '/nothing')).json()).toMatchObject({ code: 'route_not_found', message: 'No control at /__control/nothing.' })
    await harness.redis().stop()
    try {
      const down = await open.control(0, '/reset', { method: 'POST' })
      expect(down.status).toBe(503)
      expect(await down.json()).toMatchObject({ code: 'store_unavailable' })
    } finally {
      await harness.redis().restart()
    }
  })

  it('acts on the key\'s own store under isolation, and resets every store without a key', async () => {
    const { control, list } = await replicas({ isolate: true })
    expect((await control(0, '/seed', { method: 'POST', key: 'team-a', body: JSON.stringify({ count: 3 }) })).status).toBe(201)
    expect(await list(1, 'team-a')).toHaveLength(pets.length + 3)
    expect(await list(1, 'team-b')).toHaveLength(pets.length)
    // team-a's journal holds the one list request it made through replica 1.
    expect(await (await control(1, '/', { key: 'team-a' })).json()).toEqual({ animals: pets.length + 3, journal: 1, forcedRules: 0 })
    const unnamed = await control(0, '/snapshot', { key: null })
    expect(unnamed.status).toBe(400)
    expect(await unnamed.json()).toMatchObject({ code: 'store_not_named' })
    expect(await (await control(0, '/snapshot?store=shared', { key: null })).json()).toMatchObject({ code: 'invalid_parameter', message: "No store is labelled 'shared'; see /__control/stores." })
    // The operator (here: no key, to a fake that takes any key) names a store by the label GET /stores shows, as in memory.
    const { stores } = (await (await control(1, '/stores', { key: null })).json()) as { stores: { label: string; animals: number }[] }
    const teamA = stores.find((store) => store.animals === pets.length + 3)
    expect(stores.map((store) => store.animals).sort()).toEqual([pets.length, pets.length + 3].sort())
    expect(JSON.parse(await (await control(0, `/snapshot?store=${teamA?.label}`, { key: null })).text())).toHaveLength(pets.length + 3)
    // A team's key reaches its own store alone: no other store by its label, no list of stores.
    for (const path of [`/snapshot?store=${teamA?.label}`, '/stores']) expect(await (await control(0, path, { key: 'team-b' })).json()).toMatchObject({ code: 'operator_only' })
    await control(0, '/seed', { method: 'POST', key: 'team-b', body: JSON.stringify({ count: 2 }) })
    expect((await control(1, '/reset', { method: 'POST', key: 'team-b' })).status).toBe(200)
    expect(await list(0, 'team-b')).toHaveLength(pets.length)
    expect(await list(0, 'team-a')).toHaveLength(pets.length + 3)
    expect(await (await control(0, '/reset', { method: 'POST', key: null })).json()).toEqual({ animals: null, journal: 0, forcedRules: 0 })
    expect(await list(1, 'team-a')).toHaveLength(pets.length)
  })
  it('draws a seed\'s seed from random when none is given, and says which animals stay when creations took the room meanwhile', async () => {
    const half = await replicas({ random: () => 0.5 })
    expect((await half.control(0, '/seed', { method: 'POST', body: JSON.stringify({ count: 3 }) })).status).toBe(201)
    const fake = createFake({ pets })
    await fake.seed(3, { seed: 2 ** 31 })
    expect((await half.list(1)).slice(pets.length).map((pet) => pet.name)).toEqual(fake.snapshot().slice(pets.length).map((pet) => pet.name))
    // Before the seed's second step, another replica's creations fill the budget.
    let steps = 0
    const wrap = (connection: RedisConnection): RedisConnection => ({
      ...connection,
      async script(source, keys, args) {
        // A seed's step is the one script given the animals, their order, the last id, the statuses and the budget's counts.
        const budget = keys.find((key) => key.endsWith(':animals'))
        if (keys.length === 9 && budget !== undefined && ++steps === 2) await connection.command(['INCRBY', budget, '1000'])
        return connection.script(source, keys, args)
      },
    })
    const crowded = await replicas({ maxAnimals: pets.length + 1500, wrap })
    const stopped = await crowded.control(0, '/seed', { method: 'POST', body: JSON.stringify({ count: 1500 }) })
    expect(stopped.status).toBe(507)
    expect(await stopped.json()).toMatchObject({ code: 'store_full', message: `The seed stopped after 1000 of 1500 animals, which stay stored (ids ${FIXTURE_MAX + 1} to ${FIXTURE_MAX + 1000}); the next was refused: The fake has no room for 500 more animals: it holds ${pets.length + 2000} of at most ${pets.length + 1500} animals (--max-animals, every store together).` })
    expect(await crowded.list(1)).toHaveLength(100)
    // A first step refused says the budget's own words.
    const first = await replicas({ maxAnimals: pets.length + 10, wrap })
    steps = 1
    const refused = await first.control(0, '/seed', { method: 'POST', body: JSON.stringify({ count: 10 }) })
    expect(await refused.json()).toMatchObject({ message: `The fake has no room for 10 more animals: it holds ${pets.length + 1000} of at most ${pets.length + 10} animals (--max-animals, every store together).` })
    expect(JSON.parse(await (await crowded.control(1, '/snapshot')).text())).toHaveLength(pets.length + 1000)
  })

  it('takes a request\'s credential and route before its body, bounds each control\'s body, and names what a body must be', async () => {
    const { control } = await replicas({ maxAnimals: pets.length + 3 })
    const big = JSON.stringify({ count: 1, pad: 'x'.repeat(2048) })
    expect((await control(0, '/seed', { method: 'POST', key: null, body: big })).status).toBe(401)
    expect((await control(0, '/nothing', { method: 'POST', body: big })).status).toBe(404)
    expect((await control(0, '/seed', { method: 'POST', body: big })).status).toBe(413)
    const many = JSON.stringify(Array.from({ length: pets.length + 4 }, (_, i) => ({ id: i + 1, name: 'x'.repeat(500), categoryId: 1 })))
    const tooMany = await control(0, '/snapshot', { method: 'PUT', body: many })
    expect(tooMany.status).toBe(400)
    expect(await tooMany.json()).toMatchObject({ message: `The snapshot is not valid: more than the maximum of ${pets.length + 3} animals.` })
    expect(await (await control(0, '/seed', { method: 'POST' })).json()).toMatchObject({ code: 'missing_body', message: expect.stringContaining('an object such as {"count": 100, "seed": 7}') })
    expect(await (await control(0, '/snapshot', { method: 'PUT' })).json()).toMatchObject({ message: 'A request body is required: a JSON array of animals.' })
    expect(await (await control(1, '')).json()).toEqual({ animals: pets.length, journal: 0, forcedRules: 0 })
  })

  it('answers 503 store_unavailable for each control while Redis is down, over the shared store and a key\'s own', async () => {
    const BODIES: Readonly<Record<string, string>> = { 'POST /seed': '{"count":1}', 'POST /forced': '{"status":503}', 'PUT /latency': '{"ms":1}' }
    const setups = [await replicas(), await replicas({ isolate: true })]
    await harness.redis().stop()
    try {
      for (const { control } of setups) {
        for (const [path, method] of [['/seed', 'POST'], ['/snapshot', 'GET'], ['/', 'GET'], ['/reset', 'POST'], ['/forced', 'GET'], ['/forced', 'POST'], ['/forced', 'DELETE'], ['/forced/1', 'DELETE'], ['/latency', 'GET'], ['/latency', 'PUT']] as const) {
          const down = await control(0, path, { method, ...(setups[0]?.control === control ? {} : { key: 'team' }), ...(BODIES[`${method} ${path}`] === undefined ? {} : { body: BODIES[`${method} ${path}`] }) })
          expect(down.status, path).toBe(503)
          expect(await down.json()).toMatchObject({ code: 'store_unavailable' })
        }
      }
    } finally {
      await harness.redis().restart()
    }
  })

  it('acts on the shared store without a key when any key is accepted, answering JSON', async () => {
    const { control } = await replicas({ anyKey: true })
    const snapshot = await control(0, '/snapshot', { key: null })
    expect(snapshot.status).toBe(200)
    expect(snapshot.headers.get('content-type')).toBe('application/json')
    expect(JSON.parse(await snapshot.text())).toEqual(pets)
    const summary = await control(1, '/', { key: null })
    expect(summary.headers.get('content-type')).toBe('application/json')
    expect(await summary.json()).toEqual({ animals: pets.length, journal: 0, forcedRules: 0 })
  })

  it(`reads no more than ${MAX_NAME_SCAN} animals from Redis for a search by name, however large the store, 1,000 at a time`, async () => {
    const ranges: string[][] = []
    const wrap = (connection: RedisConnection): RedisConnection => ({
      ...connection,
      script(source, keys, args) {
        if (source.includes("'ZRANGE', KEYS[1], ARGV[1], ARGV[2]")) ranges.push([keys[0] ?? '', ...args])
        return connection.script(source, keys, args)
      },
    })
    const { control } = await replicas({ wrap, maxAnimals: 300_000 })
    expect((await control(0, '/seed', { method: 'POST', body: JSON.stringify({ count: MAX_NAME_SCAN + 1000 - pets.length }) })).status).toBe(201)
    ranges.length = 0
    const found = (await (await control(0, '/animals?name=zzz-nobody&limit=1')).json()) as { complete: boolean; scanned: number; total: number }
    expect(found).toMatchObject({ complete: false, scanned: MAX_NAME_SCAN, total: 0 })
    expect(ranges).toHaveLength(MAX_NAME_SCAN / 1000)
    expect(ranges.every(([, from = '', to = ''], i) => Number(from) === i * 1000 && Number(to) === i * 1000 + 999)).toBe(true)
    ranges.length = 0
    const sold = (await (await control(0, '/animals?name=a&status=sold&limit=1')).json()) as { scanned: number }
    expect(ranges[0]).toEqual([expect.stringMatching(/:status:sold$/), '0', '999', String(READ_CHARS)])
    expect(sold.scanned).toBeGreaterThan(1000)
  })

  it(`copies at most ${READ_CHARS} characters of animals from Redis per command, and ${SEARCH_CHARS} per read, for a search by name, however long their names`, async () => {
    const read: number[] = []
    const wrap = (connection: RedisConnection): RedisConnection => ({
      ...connection,
      async script(source, keys, args) {
        const reply = await connection.script(source, keys, args)
        if (source.includes("'ZRANGE', KEYS[1], ARGV[1], ARGV[2]")) read.push((reply as string[]).reduce((chars, text) => chars + text.length, 0))
        return reply
      },
    })
    // Megabytes a command: a deadline that CI's load cannot reach.
    const { control } = await replicas({ wrap, timeoutMs: 10_000 })
    // 3,000 animals of 4,000-character names: 12 MB, which 1,000 at a time would copy 4 MB a read.
    const long = Array.from({ length: 3000 }, (_, i) => ({ id: i + 1, name: `${i === 2999 ? 'Last ' : ''}${'n'.repeat(4000)}`, categoryId: 1 }))
    expect((await control(0, '/snapshot', { method: 'PUT', body: JSON.stringify(long) })).status).toBe(200)
    read.length = 0
    const found = (await (await control(1, '/animals?name=last&limit=1')).json()) as { total: number; scanned: number; animals: Pet[] }
    expect(found).toMatchObject({ total: 1, scanned: 3000, animals: [{ id: 3000 }] })
    // Each command copies at most READ_CHARS and one animal, so a search's read of SEARCH_CHARS is several.
    const longest = JSON.stringify(long[0]).length
    expect(Math.max(...read)).toBeLessThan(READ_CHARS + longest)
    expect(read.length).toBeGreaterThanOrEqual((3000 * 4000) / (READ_CHARS + longest))
    expect(read.reduce((sum, chars) => sum + chars, 0)).toBeGreaterThan(3000 * 4000)
  })
})
