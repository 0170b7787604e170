import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis, REDIS_QUEUE_LIMIT, redisWhere, type RedisConnection } from '../../src/redis/connection.js'
import { createRedisStore, type RedisStore } from '../../src/redis/redis-store.js'
import { DEFAULT_BUDGET_LIMITS } from '../../src/service/budget.js'
import type { Int64, NewPet, Pet, PetStatus } from '../../src/spec/animals-service.js'
import { type Found, StoreUnavailable } from '../../src/store/port.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'

/** One store's animals over the Redis adapter, through one connection: a replica's view of them, by the port's operations. */
/** A store as a replica starts it: it knows the data's epoch (and the first loads the fixture, here none). */
async function started(making: Promise<RedisStore>): Promise<RedisStore> {
  const store = await making
  const outcome = await store.start()
  if (!outcome.ok) throw new Error('the fixture did not fit')
  return store
}

function animalsOf(store: RedisStore, label: string) {
  const step = async (operation: Parameters<RedisStore['perform']>[3]): Promise<Found> => {
    const found = await store.perform(label, await store.rules.view(label, true), undefined, operation)
    if (found === 'stale') throw new Error('no rule changed: a step cannot be stale here')
    return found
  }
  const size = async (): Promise<number> => Object.values(await store.animals.counts(label)).reduce((sum, count) => sum + count, 0)
  return {
    label,
    async get(id: Int64) {
      const found = await step({ kind: 'get', id })
      return found.kind === 'get' ? found.json : undefined
    },
    async listJson(limit: number, status?: PetStatus) {
      const found = await step({ kind: 'list', limit, status })
      return found.kind === 'list' ? found.json : ''
    },
    async create(newPet: NewPet) {
      const found = await step({ kind: 'create', newPet })
      if (found.kind !== 'create') throw new Error('no creation')
      return found.created
    },
    createMany: (newPets: readonly NewPet[]) => store.animals.createMany(label, newPets),
    replace: (pets: readonly Pet[]) => store.animals.replace(label, pets),
    size,
    texts: async (status?: PetStatus) => [...(await store.animals.slice(label, status, 0, 1_000_000))],
  }
}

// The animals of a store in a real redis-server, through two connections, as two replicas see them.
describe.skipIf(!hasRedis)('the animals of a store in Redis', () => {
  let server: RedisServer
  let one: RedisConnection
  let two: RedisConnection
  beforeAll(async () => {
    server = await startRedis()
    one = await connectRedis({ url: server.url, timeoutMs: 1000 })
    two = await connectRedis({ url: server.url, timeoutMs: 1000 })
    await Promise.all([one, two].map((connection) => new Promise<void>((resolve) => connection.onReady(resolve))))
  })
  afterAll(async () => {
    await one?.close()
    await two?.close()
    await server?.remove()
  })
  let stores = 0
  const storeOver = async (connection: RedisConnection, maxAnimals: number) => {
    // A store starts as a replica does, over its connection: back, after a test that restarted Redis.
    for (let attempt = 0; !connection.ready(); attempt++) {
      if (attempt > 250) throw new Error('the connection did not come back')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return started(createRedisStore({ call: connection, prefix: 'am:', fixture: [], limits: { ...DEFAULT_BUDGET_LIMITS, maxAnimals }, journalSize: 0, maxScopes: 100, now: () => 0 }))
  }
  const pair = async (maxAnimals = 1_000_000) => {
    const label = `test-${++stores}`
    return [animalsOf(await storeOver(one, maxAnimals), label), animalsOf(await storeOver(two, maxAnimals), label)] as const
  }
  const over = async (label: string, maxAnimals: number, connection = one) => animalsOf(await storeOver(connection, maxAnimals), label)

  it('assigns ids once across replicas creating at once: unique, ascending from the highest loaded, never reused after a reload', async () => {
    const [a, b] = await pair()
    expect(await a.replace([{ id: 7, name: 'Seven', categoryId: 1, status: 'sold' }])).toEqual({ ok: true, value: undefined })
    const created = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).create({ name: `Animal ${i}`, categoryId: 2, ...(i % 3 === 0 ? { status: 'available' as const } : {}) })))
    const ids = created.map((result) => (result.ok ? Number(result.value.id) : 0))
    expect(new Set(ids).size).toBe(200)
    expect(Math.min(...ids)).toBe(8)
    expect(Math.max(...ids)).toBe(207)
    const first = created[0]
    expect(first?.ok && JSON.parse(first.value.json)).toEqual({ id: first?.ok ? first.value.id : 0, name: 'Animal 0', categoryId: 2, status: 'available' })
    // A reload of a smaller set keeps the ids given out: the next is 208, not 8.
    await b.replace([{ id: 7, name: 'Seven', categoryId: 1 }])
    const next = await a.create({ name: 'After', categoryId: 1 })
    expect(next.ok && next.value.id).toBe(208)
    expect(await b.get(208)).toBe('{"id":208,"name":"After","categoryId":1}')
  })

  it('keeps each store to itself: a replacement or a creation in one leaves another\'s animals as they were', async () => {
    const [a] = await pair()
    const [b] = await pair()
    await a.replace([{ id: 1, name: 'Only in a', categoryId: 1, status: 'sold' }])
    await b.replace([{ id: 1, name: 'Only in b', categoryId: 1 }, { id: 2, name: 'Also in b', categoryId: 1 }])
    const created = await b.create({ name: 'Made in b', categoryId: 1, status: 'sold' })
    expect(created.ok && created.value.id).toBe(3)
    expect(await a.texts()).toEqual(['{"id":1,"name":"Only in a","categoryId":1,"status":"sold"}'])
    expect(await a.listJson(10, 'sold')).toBe('[{"id":1,"name":"Only in a","categoryId":1,"status":"sold"}]')
    expect(await b.listJson(10, 'sold')).toBe('[{"id":3,"name":"Made in b","categoryId":1,"status":"sold"}]')
    expect(await a.size()).toBe(1)
    // A created animal with a status is listed by it, one without is listed only unfiltered.
    const plain = await a.create({ name: 'No status', categoryId: 1 })
    expect(plain.ok && plain.value.json).toBe('{"id":2,"name":"No status","categoryId":1}')
    expect(JSON.parse(await a.listJson(10)).map((pet: { id: number }) => pet.id)).toEqual([1, 2])
    for (const status of ['available', 'pending', 'sold'] as const) expect(await a.listJson(10, status)).not.toContain('No status')
  })

  it('empties a store with an empty replacement, and writes a replacement of exactly 1,000 and of 2,500 whole', async () => {
    const [a, b] = await pair()
    await a.replace([{ id: 4, name: 'Gone', categoryId: 1, status: 'pending' }])
    expect(await a.replace([])).toEqual({ ok: true, value: undefined })
    expect(await b.listJson(10)).toBe('[]')
    expect(await b.listJson(10, 'pending')).toBe('[]')
    for (const count of [1000, 2500]) {
      await a.replace(Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `A${i + 1}`, categoryId: 1, status: 'available' as const })))
      expect(await b.size()).toBe(count)
      expect((await b.texts()).length).toBe(count)
      expect(JSON.parse(await b.listJson(100, 'available'))).toHaveLength(100)
      expect(JSON.parse((await b.texts()).at(-1) ?? '{}').id).toBe(count)
    }
    // The ids go on after the highest ever loaded, 2,500, and never back to 5 after the empty store.
    const next = await b.create({ name: 'Next', categoryId: 1 })
    expect(next.ok && next.value.id).toBe(2501)
  })

  it('ends two replacements of one store at once with one of them whole, and leaves no loading key behind', async () => {
    const [a, b] = await pair()
    const set = (name: string) => Array.from({ length: 2500 }, (_, i) => ({ id: i + 1, name: `${name}${i}`, categoryId: 1, status: 'sold' as const }))
    const results = await Promise.all([a.replace(set('A')), b.replace(set('B'))])
    expect(results.every((result) => result.ok)).toBe(true)
    const names = (await a.texts()).map((text) => (JSON.parse(text) as { name: string }).name[0])
    expect(names).toHaveLength(2500)
    expect(new Set(names).size).toBe(1)
    expect(JSON.parse(await b.listJson(100, 'sold'))).toHaveLength(100)
    expect(await one.command(['KEYS', `am:{${a.label}}:loading:*`])).toEqual([])
    // What is swapped in lives for ever: no time to live is carried over from the loading keys.
    expect(await one.command(['TTL', `am:{${a.label}}:animal`])).toBe(-1)
    expect(await one.command(['TTL', `am:{${a.label}}:status:sold`])).toBe(-1)
  })

  it('makes a store for a key once: a later claim keeps what the first made and what was created since; idle drops and resets act on a store in use only', async () => {
    const fixture: Pet[] = [{ id: 3, name: 'Start', categoryId: 1, status: 'sold' }]
    const isolated = (connection: RedisConnection, maxAnimals = 1_000_000) =>
      started(createRedisStore({ call: connection, prefix: 'iso:', fixture, limits: { ...DEFAULT_BUDGET_LIMITS, maxAnimals }, journalSize: 0, maxScopes: 100, now: () => 600, isolate: { secret: 'x'.repeat(32), idleMs: 1000 } }))
    const [first, second] = [await isolated(one), await isolated(two)]
    const claimed = await first.tenants.claim('key-x', 100, 1000)
    if (!claimed.ok) throw new Error('refused')
    const label = claimed.value
    const [a, b] = [animalsOf(first, label), animalsOf(second, label)]
    const inUse = async () => Number(await one.command(['ZSCORE', 'iso:stores', label]))
    const made = await a.create({ name: 'Made', categoryId: 1, status: 'sold' })
    expect(made.ok && made.value.id).toBe(4)
    // The second replica to claim it came late: the store stays as it is, its use time moves on.
    expect(await second.tenants.claim('key-x', 200, 1000)).toEqual({ ok: true, value: label })
    expect(await b.texts()).toEqual(['{"id":3,"name":"Start","categoryId":1,"status":"sold"}', '{"id":4,"name":"Made","categoryId":1,"status":"sold"}'])
    expect(await inUse()).toBe(200)
    // Dropped only when last used at or before the time given, its animals and text given back to the budget.
    const [animals, chars] = (await one.command(['MGET', 'iso:animals', 'iso:chars'])) as string[]
    await first.tenants.dropIdle(199)
    expect(await inUse()).toBe(200)
    await first.tenants.dropIdle(200)
    expect(await one.command(['ZSCORE', 'iso:stores', label])).toBeNull()
    expect(await one.command(['MGET', 'iso:animals', 'iso:chars'])).toEqual([String(Number(animals) - 2), '0'])
    expect(Number(chars)).toBeGreaterThan(0)
    expect(await one.command(['KEYS', `iso:{${label}}:*`])).toEqual([])
    // A reset of a dropped store makes nothing; a claim makes it again, ids from the fixture's.
    expect(await second.animals.renew(label)).toEqual({ ok: true, value: undefined })
    expect(await b.size()).toBe(0)
    expect(await first.tenants.claim('key-x', 500, 1000)).toEqual({ ok: true, value: label })
    await a.create({ name: 'Again', categoryId: 1 })
    expect(await second.animals.renew(label)).toEqual({ ok: true, value: undefined })
    expect(await b.texts()).toEqual(['{"id":3,"name":"Start","categoryId":1,"status":"sold"}'])
    const after = await b.create({ name: 'After renewal', categoryId: 1 })
    expect(after.ok && after.value.id).toBe(5)
    expect(await inUse()).toBe(600)
    // A renewal past the budget is refused, keeping the store as it was.
    const tight = await isolated(one, 0)
    // As in memory: what every store holds, this one included; the renewal would hold one fewer.
    expect(await tight.animals.renew(label)).toEqual({ ok: false, error: { kind: 'no_room', adding: -1, held: { animals: 2, chars: expect.any(Number) } } })
    expect(await b.size()).toBe(2)
  })

  it('refuses a store for a key past the most stores, leaving nothing of it behind', async () => {
    const store = await createRedisStore({ call: one, prefix: 'full:', fixture: [{ id: 1, name: 'One', categoryId: 1 }], limits: DEFAULT_BUDGET_LIMITS, journalSize: 0, maxScopes: 100, now: () => 0, isolate: { secret: 'y'.repeat(32), idleMs: 60_000 } })
    expect(await store.tenants.claim('first', 1, 1)).toMatchObject({ ok: true })
    expect(await store.tenants.claim('second', 1, 1)).toEqual({ ok: false, error: { kind: 'no_store', max: 1 } })
    expect(await store.tenants.labels()).toHaveLength(1)
    expect(((await one.command(['KEYS', 'full:{key-*'])) as string[]).every((key) => !key.includes('loading'))).toBe(true)
    expect(await store.tenants.claim('second', 1, 2)).toMatchObject({ ok: true })
  })

  it('creates many in one step: ids one after another, each listed by its status, all refused past the budget', async () => {
    const [a, b] = await pair()
    await a.replace([{ id: 10, name: 'Ten', categoryId: 1 }])
    const statuses = ['available', 'pending', 'sold', undefined] as const
    const made = await a.createMany(statuses.map((status, i) => ({ name: `Many ${i}`, categoryId: i + 1, ...(status === undefined ? {} : { status }) })))
    expect(made).toEqual({ ok: true, value: { firstId: 11, lastId: 14 } })
    for (const status of ['available', 'pending', 'sold'] as const) {
      expect(JSON.parse(await b.listJson(10, status))).toEqual([{ id: 11 + statuses.indexOf(status), name: `Many ${statuses.indexOf(status)}`, categoryId: statuses.indexOf(status) + 1, status }])
    }
    expect(await b.get(14)).toBe('{"id":14,"name":"Many 3","categoryId":4}')
    const total = Number(await one.command(['GET', 'am:animals']))
    const small = await over(a.label, total + 1)
    const refused = await small.createMany([{ name: 'X', categoryId: 1 }, { name: 'Y', categoryId: 1 }])
    expect(refused).toEqual({ ok: false, error: { kind: 'no_room', adding: 2, held: { animals: total, chars: expect.any(Number) } } })
    expect(await a.size()).toBe(5)
    expect(await small.createMany([{ name: 'Fits', categoryId: 1 }])).toEqual({ ok: true, value: { firstId: 15, lastId: 15 } })
  })

  it('hands out ids past 2^53 as bigints, exactly', async () => {
    const [a, b] = await pair()
    await a.replace([{ id: 9007199254740991, name: 'Max safe', categoryId: 1 }])
    const safe = await b.create({ name: 'Past it', categoryId: 1 })
    expect(safe.ok && safe.value.id).toBe(9007199254740992n)
    const next = await a.create({ name: 'Further', categoryId: 1 })
    expect(next.ok && next.value.id).toBe(9007199254740993n)
    expect(await b.get(9007199254740993n)).toBe('{"id":9007199254740993,"name":"Further","categoryId":1}')
    await a.create({ name: 'Again', categoryId: 1 })
    await a.create({ name: 'And again', categoryId: 1 })
    // The last id is 2^53 + 4 now; a reload up to 2^53 + 5 moves it on (as doubles the two are
    // equal), and a later reload up to a lower id leaves it.
    await b.replace([{ id: 9007199254740996n, name: 'Loaded', categoryId: 1 }])
    const after = await a.create({ name: 'After the load', categoryId: 1 })
    expect(after.ok && after.value.id).toBe(9007199254740997n)
    await b.replace([{ id: 9007199254740995n, name: 'Lower', categoryId: 1 }])
    const later = await a.create({ name: 'Later', categoryId: 1 })
    expect(later.ok && later.value.id).toBe(9007199254740998n)
    expect((await a.texts()).map((text) => /"id":([0-9]+)/.exec(text)?.[1])).toEqual(['9007199254740995', '9007199254740998'])
  })

  it('lists in ascending id order up to the limit, by status when asked, the same through either replica', async () => {
    const [a, b] = await pair()
    const statuses = ['available', 'pending', 'sold', undefined] as const
    await a.replace(
      Array.from({ length: 30 }, (_, i) => {
        const status = statuses[i % 4]
        return { id: 100 - i * 3, name: `N${i}`, categoryId: 1, ...(status === undefined ? {} : { status }) }
      }),
    )
    const listed = JSON.parse(await b.listJson(5)) as { id: number }[]
    expect(listed.map((pet) => pet.id)).toEqual([13, 16, 19, 22, 25])
    const sold = JSON.parse(await a.listJson(100, 'sold')) as { id: number; status: string }[]
    expect(sold).toHaveLength(7)
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true)
    expect(sold.map((pet) => pet.id)).toEqual([...sold.map((pet) => pet.id)].sort((x, y) => x - y))
    expect(await b.listJson(1, 'pending')).toBe(JSON.stringify([{ id: 13, name: 'N29', categoryId: 1, status: 'pending' }]))
    expect(JSON.parse(await a.listJson(100))).toHaveLength(30)
    expect(await a.size()).toBe(30)
    expect((await b.texts()).map((text) => JSON.parse(text).id)).toEqual(Array.from({ length: 30 }, (_, i) => 13 + i * 3))
    expect(await a.get(99)).toBeUndefined()
    // The animals came highest id first: the next id is after the highest, 100, not after the last given, 13.
    const next = await b.create({ name: 'After a reversed load', categoryId: 1 })
    expect(next.ok && next.value.id).toBe(101)
  })

  it('holds the budget across replicas and stores: exactly at the cap creates, one past it is store_full and stores nothing', async () => {
    const [a, b] = await pair(1_000_000)
    const [c] = await pair(1_000_000)
    // The budget counts every store of the prefix: read what the others hold first.
    const total = Number(await one.command(['GET', 'am:animals']))
    const [x, y, z] = [await over(a.label, total + 3), await over(b.label, total + 3, two), await over(c.label, total + 3, two)]
    const results = await Promise.all([x, y, z, x, y].map((store, i) => store.create({ name: `B${i}`, categoryId: 1 })))
    expect(results.filter((result) => result.ok)).toHaveLength(3)
    const refused = results.filter((result) => !result.ok)
    expect(refused).toHaveLength(2)
    expect(refused[0]).toEqual({ ok: false, error: { kind: 'no_room', adding: 1, held: { animals: total + 3, chars: expect.any(Number) } } })
    expect((await x.size()) + (await z.size())).toBe(3)
    // A replacement one past the budget keeps what the store had; one that frees as much as it takes fits.
    const had = await x.size()
    const texts = await x.texts()
    expect(await x.replace(Array.from({ length: had + 1 }, (_, i) => ({ id: i + 1, name: 'r', categoryId: 1 })))).toEqual({
      ok: false,
      error: { kind: 'no_room', adding: 1, held: { animals: total + 3, chars: expect.any(Number) } },
    })
    expect(await x.texts()).toEqual(texts)
    expect((await x.replace(Array.from({ length: had }, (_, i) => ({ id: i + 1, name: 'r', categoryId: 1 })))).ok).toBe(true)
    expect(Number(await one.command(['GET', 'am:animals']))).toBe(total + 3)
  })

  it('keeps a replaced store whole: a duplicate id counts once, a million-character name round-trips', async () => {
    const [a, b] = await pair()
    const long = 'x'.repeat(1_000_000)
    await a.replace([{ id: 5, name: 'first', categoryId: 1 }, { id: 5, name: long, categoryId: 1 }])
    expect(await b.size()).toBe(1)
    expect(JSON.parse((await b.get(5)) ?? '{}').name).toBe(long)
  })

  it('keeps every acknowledged animal across a Redis restart (append-only file, appendfsync always), and says the connection is ready again', async () => {
    const [a] = await pair()
    let readied = 0
    one.onReady(() => (readied += 1))
    expect(readied).toBe(1)
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => a.create({ name: `Durable ${i}`, categoryId: 1 })))
    const ids = made.map((result) => (result.ok ? result.value.id : 0))
    await server.kill()
    await server.restart()
    await new Promise<void>((resolve) => {
      const wait = (): void => void (one.ready() ? resolve() : setTimeout(wait, 20))
      wait()
    })
    for (const id of ids) expect(await a.get(id)).toContain('Durable')
    expect(readied).toBe(2)
  })

  it('fails a command with StoreUnavailable, not a hang, while Redis is down, and works again when it is back', async () => {
    const [a] = await pair()
    await a.create({ name: 'Before', categoryId: 1 })
    await server.stop()
    const started = performance.now()
    await expect(a.listJson(10)).rejects.toBeInstanceOf(StoreUnavailable)
    await expect(a.create({ name: 'Lost', categoryId: 1 })).rejects.toThrow(/^The store at redis:\/\/127\.0\.0\.1:[0-9]+ did not answer: /)
    expect(performance.now() - started).toBeLessThan(5_000)
    await server.restart()
    for (let attempt = 0; !one.ready(); attempt++) {
      if (attempt > 200) throw new Error('the connection did not come back')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(JSON.parse(await a.listJson(10)).map((pet: { name: string }) => pet.name)).toEqual(['Before'])
  })

  it('fails a command with StoreUnavailable at the timeout when Redis is connected but answers nothing', async () => {
    const [a] = await pair()
    server.pause()
    try {
      const started = performance.now()
      await expect(a.get(1)).rejects.toBeInstanceOf(StoreUnavailable)
      const waited = performance.now() - started
      expect(waited).toBeGreaterThanOrEqual(900)
      expect(waited).toBeLessThan(5_000)
    } finally {
      server.resume()
    }
    expect(await a.get(1)).toBeUndefined()
  })

  it('holds at most REDIS_QUEUE_LIMIT commands waiting for a Redis that answers nothing: exactly that many wait, the ones past it fail at once', async () => {
    server.pause()
    try {
      const settled = await Promise.allSettled(Array.from({ length: REDIS_QUEUE_LIMIT + 5 }, () => one.command(['GET', 'nothing'])))
      const reasons = settled.map((outcome) => (outcome.status === 'rejected' ? String((outcome.reason as Error).message) : 'answered'))
      expect(reasons.filter((reason) => reason.endsWith('no answer within 1000 ms (--store-timeout).'))).toHaveLength(REDIS_QUEUE_LIMIT)
      expect(reasons.slice(REDIS_QUEUE_LIMIT)).toEqual(Array.from({ length: 5 }, () => expect.stringMatching(/did not answer: The queue is full\.$/)))
    } finally {
      server.resume()
    }
    // The commands that timed out still count until Redis answers them, at once once it runs again.
    for (let attempt = 0; ; attempt++) {
      try {
        expect(await one.command(['GET', 'nothing'])).toBeNull()
        break
      } catch (error) {
        if (!(error instanceof StoreUnavailable) || attempt > 100) throw error
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
  })

  it('lets go of Redis when closed: a command after it fails', async () => {
    const connection = await connectRedis({ url: server.url, timeoutMs: 1000 })
    expect(await connection.command(['PING'])).toBe('PONG')
    await connection.close()
    await expect(connection.command(['PING'])).rejects.toBeInstanceOf(StoreUnavailable)
  })

  it('sends a script whole once, then by its SHA-1 alone', async () => {
    await one.command(['SCRIPT', 'FLUSH'])
    await one.command(['CONFIG', 'RESETSTAT'])
    for (let i = 0; i < 5; i++) await one.script("return redis.call('GET', KEYS[1])", ['nothing'], [])
    const stats = String(await one.command(['INFO', 'commandstats']))
    expect(/cmdstat_eval:calls=([0-9]+)/.exec(stats)?.[1]).toBe('1')
    expect(/cmdstat_evalsha:calls=([0-9]+)/.exec(stats)?.[1]).toBe('5')
  })

  it('fails a command at once while Redis is down, however long its deadline: nothing waits in a queue', async () => {
    const patient = await connectRedis({ url: server.url, timeoutMs: 600_000 })
    await new Promise<void>((resolve) => patient.onReady(resolve))
    // A listener added once the connection is ready is called at once.
    let told = 0
    patient.onReady(() => (told += 1))
    expect(told).toBe(1)
    await server.stop()
    try {
      for (let attempt = 0; patient.ready(); attempt++) {
        if (attempt > 200) throw new Error('the connection did not notice Redis stop')
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      const error = await patient.command(['PING']).catch((reason: unknown) => reason)
      expect(error).toBeInstanceOf(StoreUnavailable)
      expect(error).toMatchObject({ name: 'StoreUnavailable' })
    } finally {
      await server.restart()
      await patient.close()
    }
  })
})

it('names a Redis without its password', () => {
  expect(redisWhere('redis://reader:s3cret-word@redis.internal:6380/2')).toBe('redis://reader:***@redis.internal:6380/2')
  expect(redisWhere('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379')
})

describe.skipIf(!hasRedis)('a connection to a Redis that is not there', () => {
  it('waits for it no longer than its deadline, calls no ready listener, and fails commands', async () => {
    const nowhere = await startRedis()
    const url = nowhere.url
    await nowhere.remove()
    const connection = await connectRedis({ url, timeoutMs: 200 })
    let readied = 0
    connection.onReady(() => (readied += 1))
    expect(connection.ready()).toBe(false)
    await expect(connection.command(['PING'])).rejects.toBeInstanceOf(StoreUnavailable)
    expect(readied).toBe(0)
    await connection.close()
  })
})
