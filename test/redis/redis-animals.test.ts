import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis, REDIS_QUEUE_LIMIT, RedisUnavailable, redisWhere, type RedisConnection } from '../../src/redis/connection.js'
import { prepareLoad, redisAnimals } from '../../src/redis/redis-animals.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'

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
  const pair = (maxAnimals = 1_000_000) => {
    const label = `test-${++stores}`
    return [redisAnimals({ call: one, prefix: 'am:', label, maxAnimals }), redisAnimals({ call: two, prefix: 'am:', label, maxAnimals })] as const
  }

  it('assigns ids once across replicas creating at once: unique, ascending from the highest loaded, never reused after a reload', async () => {
    const [a, b] = pair()
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
    const [a] = pair()
    const [b] = pair()
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
    const [a, b] = pair()
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
    const [a, b] = pair()
    const set = (name: string) => Array.from({ length: 2500 }, (_, i) => ({ id: i + 1, name: `${name}${i}`, categoryId: 1, status: 'sold' as const }))
    const results = await Promise.all([a.replace(set('A')), b.replace(set('B'))])
    expect(results.every((result) => result.ok)).toBe(true)
    const names = (await a.texts()).map((text) => (JSON.parse(text) as { name: string }).name[0])
    expect(names).toHaveLength(2500)
    expect(new Set(names).size).toBe(1)
    expect(JSON.parse(await b.listJson(100, 'sold'))).toHaveLength(100)
    expect(await one.command(['KEYS', `am:{${a.label}}:loading:*`])).toEqual([])
    // What is swapped in lives for ever: no time to live is carried over from the loading keys.
    expect(await one.command(['TTL', `am:{${a.label}}:pets`])).toBe(-1)
    expect(await one.command(['TTL', `am:{${a.label}}:status:sold`])).toBe(-1)
  })

  it('adopts a store for a key once: a later adoption keeps what the first made and what was created since; renew and drop act on a store in use only', async () => {
    const [a, b] = pair()
    const load = prepareLoad([{ id: 3, name: 'Start', categoryId: 1, status: 'sold' }])
    const inUse = async () => Number(await one.command(['ZSCORE', 'am:stores', a.label]))
    expect(await a.touch(100)).toBe(false)
    expect(await a.adopt(load, 100, 1000)).toEqual({ ok: true, value: undefined })
    const made = await a.create({ name: 'Made', categoryId: 1, status: 'sold' })
    expect(made.ok && made.value.id).toBe(4)
    // The second replica to adopt it came late: the store stays as it is, its use time moves on.
    expect(await b.adopt(load, 200, 1000)).toEqual({ ok: true, value: undefined })
    expect(await b.texts()).toEqual(['{"id":3,"name":"Start","categoryId":1,"status":"sold"}', '{"id":4,"name":"Made","categoryId":1,"status":"sold"}'])
    expect(await inUse()).toBe(200)
    expect(await b.touch(300)).toBe(true)
    expect(await inUse()).toBe(300)
    // Dropped only when last used at or before the time given, its animals given back to the budget.
    const budget = Number(await one.command(['GET', 'am:animals']))
    expect(await a.drop(299)).toBe(false)
    expect(await a.drop(300)).toBe(true)
    expect(Number(await one.command(['GET', 'am:animals']))).toBe(budget - 2)
    expect(await one.command(['KEYS', `am:{${a.label}}:*`])).toEqual([])
    expect(await a.touch(400)).toBe(false)
    // A renewal of a dropped store makes nothing; an adoption makes it again, ids from the fixture's.
    expect(await b.renew(load, 400)).toEqual({ ok: true, value: undefined })
    expect(await b.size()).toBe(0)
    expect(await a.adopt(load, 500, 1000)).toEqual({ ok: true, value: undefined })
    await a.create({ name: 'Again', categoryId: 1 })
    expect(await b.renew(load, 600)).toEqual({ ok: true, value: undefined })
    expect(await b.texts()).toEqual(['{"id":3,"name":"Start","categoryId":1,"status":"sold"}'])
    const after = await b.create({ name: 'After renewal', categoryId: 1 })
    expect(after.ok && after.value.id).toBe(5)
    expect(await inUse()).toBe(600)
    // A renewal past the budget is refused, keeping the store as it was.
    const total = Number(await one.command(['GET', 'am:animals']))
    const tight = redisAnimals({ call: one, prefix: 'am:', label: a.label, maxAnimals: total })
    const refused = await tight.renew(prepareLoad([{ id: 1, name: 'A', categoryId: 1 }, { id: 2, name: 'B', categoryId: 1 }, { id: 3, name: 'C', categoryId: 1 }]), 700)
    expect(refused.ok || refused.error.message).toBe(`No room for 3 animals in this store: the other stores hold ${total - 2} of at most ${total} (--max-animals).`)
    expect(await b.size()).toBe(2)
  })

  it('refuses to adopt a store past the most stores, leaving nothing of it behind', async () => {
    const [a] = pair()
    const stores = Number(await one.command(['ZCARD', 'am:stores']))
    const refused = await a.adopt(prepareLoad([{ id: 1, name: 'No', categoryId: 1 }]), 1, stores)
    expect(refused.ok || refused.error.code).toBe('store_full')
    expect(await one.command(['KEYS', `am:{${a.label}}:*`])).toEqual([])
    expect(await a.adopt(prepareLoad([{ id: 1, name: 'Yes', categoryId: 1 }]), 1, stores + 1)).toEqual({ ok: true, value: undefined })
  })

  it('creates many in one step: ids one after another, each listed by its status, all refused past the budget', async () => {
    const [a, b] = pair()
    await a.replace([{ id: 10, name: 'Ten', categoryId: 1 }])
    const statuses = ['available', 'pending', 'sold', undefined] as const
    const made = await a.createMany(statuses.map((status, i) => ({ name: `Many ${i}`, categoryId: i + 1, ...(status === undefined ? {} : { status }) })))
    expect(made).toEqual({ ok: true, value: { firstId: 11, lastId: 14 } })
    for (const status of ['available', 'pending', 'sold'] as const) {
      expect(JSON.parse(await b.listJson(10, status))).toEqual([{ id: 11 + statuses.indexOf(status), name: `Many ${statuses.indexOf(status)}`, categoryId: statuses.indexOf(status) + 1, status }])
    }
    expect(await b.get(14)).toBe('{"id":14,"name":"Many 3","categoryId":4}')
    const total = Number(await one.command(['GET', 'am:animals']))
    const [small] = [redisAnimals({ call: one, prefix: 'am:', label: a.label, maxAnimals: total + 1 })]
    const refused = await small.createMany([{ name: 'X', categoryId: 1 }, { name: 'Y', categoryId: 1 }])
    expect(refused.ok || refused.error).toEqual({ code: 'store_full', message: `No room for 2 more animals: every store together holds ${total} of at most ${total + 1} (--max-animals).` })
    expect(await a.size()).toBe(5)
    expect(await small.createMany([{ name: 'Fits', categoryId: 1 }])).toEqual({ ok: true, value: { firstId: 15, lastId: 15 } })
  })

  it('hands out ids past 2^53 as bigints, exactly', async () => {
    const [a, b] = pair()
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
    const [a, b] = pair()
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
    const [a, b] = pair(1_000_000)
    const [c] = pair(1_000_000)
    // The budget counts every store of the prefix: read what the others hold first.
    const total = Number(await one.command(['GET', 'am:animals']))
    const [x, y] = [redisAnimals({ call: one, prefix: 'am:', label: a.label, maxAnimals: total + 3 }), redisAnimals({ call: two, prefix: 'am:', label: b.label, maxAnimals: total + 3 })]
    const [z] = [redisAnimals({ call: two, prefix: 'am:', label: c.label, maxAnimals: total + 3 })]
    const results = await Promise.all([x, y, z, x, y].map((store, i) => store.create({ name: `B${i}`, categoryId: 1 })))
    expect(results.filter((result) => result.ok)).toHaveLength(3)
    const refused = results.filter((result) => !result.ok)
    expect(refused).toHaveLength(2)
    expect(refused[0]).toMatchObject({ ok: false, error: { code: 'store_full', message: `No room for 1 more animal: every store together holds ${total + 3} of at most ${total + 3} (--max-animals).` } })
    expect((await x.size()) + (await z.size())).toBe(3)
    // A replacement one past the budget keeps what the store had; one that frees as much as it takes fits.
    const had = await x.size()
    const texts = await x.texts()
    expect(await x.replace(Array.from({ length: had + 1 }, (_, i) => ({ id: i + 1, name: 'r', categoryId: 1 })))).toEqual({
      ok: false,
      error: { code: 'store_full', message: `No room for ${had + 1} animals in this store: the other stores hold ${total + 3 - had} of at most ${total + 3} (--max-animals).` },
    })
    expect(await x.texts()).toEqual(texts)
    expect((await x.replace(Array.from({ length: had }, (_, i) => ({ id: i + 1, name: 'r', categoryId: 1 })))).ok).toBe(true)
    expect(Number(await one.command(['GET', 'am:animals']))).toBe(total + 3)
  })

  it('keeps a replaced store whole: a duplicate id counts once, a million-character name round-trips', async () => {
    const [a, b] = pair()
    const long = 'x'.repeat(1_000_000)
    await a.replace([{ id: 5, name: 'first', categoryId: 1 }, { id: 5, name: long, categoryId: 1 }])
    expect(await b.size()).toBe(1)
    expect(JSON.parse((await b.get(5)) ?? '{}').name).toBe(long)
  })

  it('keeps every acknowledged animal across a Redis restart (append-only file, appendfsync always), and says the connection is ready again', async () => {
    const [a] = pair()
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

  it('fails a command with RedisUnavailable, not a hang, while Redis is down, and works again when it is back', async () => {
    const [a] = pair()
    await a.create({ name: 'Before', categoryId: 1 })
    await server.stop()
    const started = performance.now()
    await expect(a.listJson(10)).rejects.toBeInstanceOf(RedisUnavailable)
    await expect(a.create({ name: 'Lost', categoryId: 1 })).rejects.toThrow(/^The store at redis:\/\/127\.0\.0\.1:[0-9]+ did not answer: /)
    expect(performance.now() - started).toBeLessThan(5_000)
    await server.restart()
    for (let attempt = 0; !one.ready(); attempt++) {
      if (attempt > 200) throw new Error('the connection did not come back')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(JSON.parse(await a.listJson(10)).map((pet: { name: string }) => pet.name)).toEqual(['Before'])
  })

  it('fails a command with RedisUnavailable at the timeout when Redis is connected but answers nothing', async () => {
    const [a] = pair()
    server.pause()
    try {
      const started = performance.now()
      await expect(a.get(1)).rejects.toBeInstanceOf(RedisUnavailable)
      const waited = performance.now() - started
      expect(waited).toBeGreaterThanOrEqual(900)
      expect(waited).toBeLessThan(5_000)
    } finally {
      server.resume()
    }
    expect(await a.get(1)).toBeUndefined()
  })

  it('holds at most REDIS_QUEUE_LIMIT commands waiting for a Redis that answers nothing: exactly that many wait, the ones past it fail at once', async () => {
    const [a] = pair()
    server.pause()
    try {
      const settled = await Promise.allSettled(Array.from({ length: REDIS_QUEUE_LIMIT + 5 }, () => a.get(1)))
      const reasons = settled.map((outcome) => (outcome.status === 'rejected' ? String((outcome.reason as Error).message) : 'answered'))
      expect(reasons.filter((reason) => reason.endsWith('no answer within 1000 ms (--store-timeout).'))).toHaveLength(REDIS_QUEUE_LIMIT)
      expect(reasons.slice(REDIS_QUEUE_LIMIT)).toEqual(Array.from({ length: 5 }, () => expect.stringMatching(/did not answer: The queue is full\.$/)))
    } finally {
      server.resume()
    }
    // The commands that timed out still count until Redis answers them, at once once it runs again.
    for (let attempt = 0; ; attempt++) {
      try {
        expect(await a.get(1)).toBeUndefined()
        break
      } catch (error) {
        if (!(error instanceof RedisUnavailable) || attempt > 100) throw error
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
  })

  it('lets go of Redis when closed: a command after it fails', async () => {
    const connection = await connectRedis({ url: server.url, timeoutMs: 1000 })
    expect(await connection.command(['PING'])).toBe('PONG')
    await connection.close()
    await expect(connection.command(['PING'])).rejects.toBeInstanceOf(RedisUnavailable)
  })

  it('sends a script whole once, then by its SHA-1 alone', async () => {
    const [a] = pair()
    await one.command(['SCRIPT', 'FLUSH'])
    await one.command(['CONFIG', 'RESETSTAT'])
    for (let i = 0; i < 5; i++) await a.listJson(3)
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
      expect(error).toBeInstanceOf(RedisUnavailable)
      expect(error).toMatchObject({ name: 'RedisUnavailable' })
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
    await expect(connection.command(['PING'])).rejects.toBeInstanceOf(RedisUnavailable)
    expect(readied).toBe(0)
    await connection.close()
  })
})
