import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { connectRedis, type RedisConnection } from '../../src/redis/connection.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createApiClient } from '../support/api-client.js'
import { redisReplica, type Replica } from '../support/fake-over.js'
import { shippedPets } from '../support/fixtures.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'
import { CONFORMANCE_CASES, CONFORMANCE_KEYS } from '../conformance/cases.js'
import { PREFER_CASES } from '../conformance/prefer-cases.js'

const pets = shippedPets('default')
const request = (method: string, path: string) => ({ method, path, basePath: API_BASE, search: '', headers: { authorization: `Bearer ${CONFORMANCE_KEYS[0]}` }, body: undefined })

// The one fake over a store in a real redis-server, served by two node:http servers, as two replicas.
describe.skipIf(!hasRedis)('the API over a store in Redis', () => {
  let redis: RedisServer
  const connections: RedisConnection[] = []
  const servers: RunningServer[] = []
  const replicas: Replica[] = []
  beforeAll(async () => {
    redis = await startRedis()
    for (let replica = 0; replica < 2; replica++) {
      const connection = await connectRedis({ url: redis.url, timeoutMs: 1000 })
      await new Promise<void>((resolve) => connection.onReady(resolve))
      const made = await redisReplica(connection, 'am:', { pets, keys: CONFORMANCE_KEYS })
      connections.push(connection)
      replicas.push(made)
      servers.push(await startServer({ app: createSite({ api: made.core }) }))
    }
  })
  afterAll(async () => {
    for (const server of servers) await server.close()
    for (const connection of connections) await connection.close()
    await redis?.remove()
  })

  describe('the conformance table, through the first replica', () => {
    // Ids go on after the highest ever handed out, a reset or not: the next one is read from Redis.
    let firstNewId = 0
    beforeEach(async () => {
      await replicas[0]?.core.controls.reset('shared')
      firstNewId = Number(await connections[0]?.command(['GET', 'am:{shared}:last'])) + 1
    })
    it.each([...CONFORMANCE_CASES, ...PREFER_CASES].map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) =>
      testCase.run({ api: createApiClient(`${servers[0]?.url}${API_BASE}`), pets, basePath: API_BASE, firstNewId }),
    )
  })

  it('lists and finds an animal created through one replica through the other at once, and ids never repeat across them', async () => {
    const [first, second] = servers.map((server) => createApiClient(`${server.url}${API_BASE}`))
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second)?.authed('/pets', { method: 'POST', body: { name: `Twin ${i}`, categoryId: 1, status: 'pending' } })))
    const ids = made.map((result) => (result?.json as { id: number }).id)
    expect(made.every((result) => result?.status === 201)).toBe(true)
    expect(new Set(ids).size).toBe(40)
    for (const id of ids) {
      const found = await second?.authed(`/pets/${id}`)
      expect(found?.status).toBe(200)
    }
    const listed = (await first?.authed('/pets', { query: 'status=pending&limit=100' }))?.json as { id: number }[]
    expect(ids.every((id) => listed.some((pet) => pet.id === id))).toBe(true)
  })

  it('answers a list of a store unchanged since from the answer it keeps, and reads the store again once any replica creates, loads or resets', async () => {
    const [first, second] = servers.map((server) => createApiClient(`${server.url}${API_BASE}`))
    await replicas[1]?.core.controls.reset('shared')
    const names = async () => ((await first?.authed('/pets', { query: 'limit=100' }))?.json as { name: string }[]).map((pet) => pet.name)
    // How many lists Redis read: a kept answer checked against the store's revision reads none.
    const reads = async () => Number(/cmdstat_zrange:calls=([0-9]+)/.exec(String(await connections[0]?.command(['INFO', 'commandstats'])))?.[1] ?? 0)
    const fixture = pets.map((pet) => pet.name)
    expect(await names()).toEqual(fixture)
    const read = await reads()
    expect(await names()).toEqual(fixture)
    expect(await first?.authed('/pets', { query: 'limit=100&status=sold' })).toMatchObject({ status: 200 })
    expect(await reads()).toBe(read + 1)
    // A creation through the other replica: :last moves on.
    await second?.authed('/pets', { method: 'POST', body: { name: 'Fresh', categoryId: 1 } })
    expect(await names()).toEqual([...fixture, 'Fresh'])
    // A load through the other replica of as many animals, the same ids: :last stays, :data moves on.
    const created = await second?.authed('/pets', { query: 'limit=100' })
    const renamed = (created?.json as { id: number; name: string }[]).map((pet) => ({ ...pet, name: `Loaded ${pet.name}` }))
    await replicas[1]?.core.controls.load('shared', renamed)
    expect(await names()).toEqual(renamed.map((pet) => pet.name))
    // Back to the fixture through the other replica.
    await replicas[1]?.core.controls.reset('shared')
    expect(await names()).toEqual(fixture)
    expect(await names()).toEqual(fixture)
    // The same lists, read each time the store moved: one kept per revision, then reused.
    expect(await reads()).toBe(read + 5)
  })

  it('finds the store as it is when a replica starts again: the fixture is loaded once, by the first', async () => {
    const client = createApiClient(`${servers[1]?.url}${API_BASE}`)
    const made = await client.authed('/pets', { method: 'POST', body: { name: 'Kept', categoryId: 2 } })
    const connection = await connectRedis({ url: redis.url, timeoutMs: 1000 })
    try {
      await new Promise<void>((resolve) => connection.onReady(resolve))
      const restarted = await redisReplica(connection, 'am:', { pets: [], keys: CONFORMANCE_KEYS })
      expect(await restarted.store.start()).toEqual({ ok: true, value: false })
      const found = await restarted.core.handle(request('GET', `/pets/${(made.json as { id: number }).id}`))
      expect('body' in found ? found.body : '').toContain('"name":"Kept"')
    } finally {
      await connection.close()
    }
  })

  it('holds every answer back by --latency, a preflight excepted, as the in-memory fake does', async () => {
    const delays: (number | undefined)[] = []
    for (const [latency, random] of [[{ ms: 150 }, () => 0.99], [{ minMs: 100, maxMs: 200 }, () => 0.5], [{ minMs: 100, maxMs: 200 }, () => 0.999]] as const) {
      const { core } = await redisReplica(connections[0] as RedisConnection, 'latency:', { pets, keys: CONFORMANCE_KEYS, latency, random })
      for (const [method, path] of [['GET', '/pets'], ['GET', '/pets/1'], ['GET', '/pets/x'], ['OPTIONS', '/pets']] as const) {
        const reply = await core.handle(request(method, path))
        delays.push('delayMs' in reply ? reply.delayMs : undefined)
      }
    }
    expect(delays).toEqual([150, 150, 150, undefined, 150, 150, 150, undefined, 200, 200, 200, undefined])
  })

  it('answers 503 store_unavailable with Retry-After while Redis is down, and the API again once it is back', async () => {
    const client = createApiClient(`${servers[0]?.url}${API_BASE}`)
    await redis.stop()
    try {
      for (const [path, init] of [['/pets', {}], ['/pets/1', {}], ['/pets', { method: 'POST', body: { name: 'Lost', categoryId: 1 } }]] as const) {
        const result = await client.authed(path, init)
        expect(result.status).toBe(503)
        expect(result.headers.get('retry-after')).toBe('1')
        expect(result.json).toMatchObject({ code: 'store_unavailable', status: 503, message: expect.stringMatching(/^The store at redis:\/\/127\.0\.0\.1:[0-9]+ did not answer: /) })
      }
      // A reset or a start meanwhile says so, and changes nothing.
      await expect(Promise.resolve(replicas[0]?.core.controls.reset('shared'))).rejects.toMatchObject({ name: 'StoreUnavailable' })
      await expect(replicas[1]?.core.store.animals.held()).rejects.toMatchObject({ name: 'StoreUnavailable' })
      // Only a request without its key is answered without Redis.
      expect((await client.call('/pets', { headers: { authorization: '' } })).status).toBe(401)
    } finally {
      await redis.restart()
    }
    for (let attempt = 0; !connections[0]?.ready(); attempt++) {
      if (attempt > 200) throw new Error('the connection did not come back')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect((await client.authed('/pets', { query: 'limit=1' })).status).toBe(200)
  })

  it('loads the fixture when the first replica of a store ever starts, and never again', async () => {
    const connection = await connectRedis({ url: redis.url, timeoutMs: 1000 })
    try {
      // A fixture past the budget is refused, and leaves the store to be filled by the next start.
      await expect(redisReplica(connection, 'fresh:', { pets, limits: { maxAnimals: pets.length - 1 } })).rejects.toThrow(/does not fit/)
      const first = await redisReplica(connection, 'fresh:', { pets })
      expect((await first.store.health()).animals).toBe(pets.length)
      await first.core.controls.seed('shared', 1)
      const later = await redisReplica(connection, 'fresh:', { pets: [] })
      expect(await later.store.start()).toEqual({ ok: true, value: false })
      expect((await later.store.health()).animals).toBe(pets.length + 1)
    } finally {
      await connection.close()
    }
  })

  it('answers 500 internal_error, not 503, when Redis refuses a command: that is a bug, not an outage', async () => {
    const connection = await connectRedis({ url: redis.url, timeoutMs: 1000 })
    const errors: unknown[] = []
    const { core } = await redisReplica(connection, 'broken:', { pets: [] })
    const server = await startServer({ app: createSite({ api: core }), onError: (error) => errors.push(error) })
    try {
      // A key of another type where the store keeps its animals: Redis answers WRONGTYPE.
      await connection.command(['SET', 'broken:{shared}:animal', 'not a hash'])
      const answer = await createApiClient(`${server.url}${API_BASE}`).authed('/pets/1')
      expect(answer.status).toBe(500)
      expect(answer.json).toMatchObject({ code: 'internal_error', status: 500 })
      expect(String(errors[0])).toMatch(/WRONGTYPE/)
      await expect(Promise.resolve(core.controls.reset('shared'))).rejects.toThrow(/WRONGTYPE/)
    } finally {
      await server.close()
      await connection.close()
    }
  })
})
