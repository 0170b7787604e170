import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis, type RedisConnection } from '../../src/redis/connection.js'
import type { RedisStore } from '../../src/redis/redis-store.js'
import { STALE } from '../../src/store/port.js'
import { isDropped, type Reply } from '../../src/service/http.js'
import { plainRequest } from '../support/core-fake.js'
import { redisReplica, type Replica } from '../support/fake-over.js'
import { shippedPets } from '../support/fixtures.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'

// One team changing its own rules and latency as fast as it can, through one replica, while
// another team's requests go through the other: a store's rules are versioned per store, so the
// churn makes none of the other team's requests start again, let alone fail.
const pets = shippedPets('default')
const statusOf = (reply: Reply): number | 'dropped' => (isDropped(reply) ? 'dropped' : reply.status)

describe.skipIf(!hasRedis)('one team\'s churn of rules and latency over Redis', () => {
  let redis: RedisServer
  const connections: RedisConnection[] = []
  const replicas: (Replica & { readonly store: RedisStore })[] = []
  beforeAll(async () => {
    redis = await startRedis({ appendfsync: 'everysec' })
    for (let replica = 0; replica < 2; replica++) {
      const connection = await connectRedis({ url: redis.url, timeoutMs: 2000 })
      await new Promise<void>((resolve) => connection.onReady(resolve))
      connections.push(connection)
      replicas.push(await redisReplica(connection, 'churn:', { pets, isolate: true }))
    }
  })
  afterAll(async () => {
    for (const connection of connections) await connection.close()
    await redis?.remove()
  })

  it('fails none of another team\'s requests and starts none of them again, while its own rules are met exactly', async () => {
    const [one, two] = replicas as [Replica & { readonly store: RedisStore }, Replica & { readonly store: RedisStore }]
    const ask = (replica: Replica, key: string, path: string, search = '') => replica.core.handle(plainRequest({ path, search, headers: { authorization: `Bearer ${key}` } }))
    expect(statusOf(await ask(one, 'team-a', '/pets'))).toBe(200)
    const claimed = await one.core.tenancy.storeFor('team-a')
    if (!claimed.ok) throw new Error('no store for team-a')
    const teamA = claimed.value
    // Team B's store, and its view of the rules, made before the churn starts.
    expect(statusOf(await ask(two, 'team-b', '/pets', 'limit=5'))).toBe(200)
    // Every step of team B's requests through the second replica, and whether it found the rules moved.
    let stale = 0
    const perform = two.store.perform.bind(two.store)
    Object.assign(two.store, {
      perform: async (...args: Parameters<RedisStore['perform']>) => {
        const found = await perform(...args)
        if (found === STALE) stale += 1
        return found
      },
    })
    let churning = true
    let changes = 0
    const churn = (async () => {
      while (churning) {
        await one.core.controls.force(teamA, { method: 'GET', path: '/pets/1', status: 503, times: 1 })
        await one.core.controls.setLatency(teamA, { ms: changes % 2 })
        changes += 1
      }
    })()
    const statuses: (number | 'dropped')[] = []
    for (let batch = 0; batch < 30; batch++) {
      const replies = await Promise.all(Array.from({ length: 10 }, () => ask(two, 'team-b', '/pets', 'limit=5')))
      statuses.push(...replies.map(statusOf))
    }
    churning = false
    await churn
    expect(changes).toBeGreaterThan(20)
    expect(statuses).toEqual(Array.from({ length: 300 }, () => 200))
    // None of team B's requests found the rules moved under it: none started again.
    expect(stale).toBe(0)
    // Team A's rules, each `times: 1`, are each met once, through either replica, and then none.
    const forced = await one.core.controls.rules(teamA)
    const met: (number | 'dropped')[] = []
    for (const [i] of forced.entries()) met.push(statusOf(await ask(i % 2 === 0 ? two : one, 'team-a', '/pets/1')))
    expect(met).toEqual(forced.map(() => 503))
    expect(statusOf(await ask(one, 'team-a', '/pets/1'))).toBe(200)
  })
})
