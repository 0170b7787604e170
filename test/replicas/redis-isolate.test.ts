import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliProcess, startServing } from '../support/cli.js'
import { shippedPets } from '../support/fixtures.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'

// Durable tenants: `serve --isolate --store` as a shared QA machine runs it. Two replicas over one
// Redis (append-only file, appendfsync always), each key a store of its own through either; every
// replica killed and one started again, then Redis killed and started again: no team loses an animal.
const SECRET = 'f'.repeat(16) + '0123456789abcdef'
const FIXTURE_SIZE = shippedPets('default').length
type Pet = { id: number; name: string }

describe.skipIf(!hasRedis)('serve --isolate --store: a store per key that outlives every replica and Redis itself', () => {
  let redis: RedisServer
  const running: CliProcess[] = []
  const start = async () => startServing(['serve', '--isolate', '--store', redis.url, '--port', '0'], running, {}, { ANIMALS_MOCK_STORE_SECRET: SECRET })
  beforeAll(async () => {
    redis = await startRedis({ appendfsync: 'always' })
  })
  afterAll(async () => {
    for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
    await redis?.remove()
  })

  const call = (base: string, key: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } })
  const names = async (base: string, key: string) => ((await (await call(base, key, '/pets?limit=100')).json()) as Pet[]).map((pet) => pet.name)

  it('keeps each team\'s store through every replica, after every replica is killed, and after Redis is killed', async () => {
    const [one, two] = [await start(), await start()]
    for (const serving of [one, two]) {
      expect(serving.cli.stdout()).toContain(`  animals: ${FIXTURE_SIZE} from fixture default, one store per key (--isolate)\n  store:   ${redis.url}, shared by every replica (--store)\n`)
    }
    const made: Record<string, Pet[]> = { 'team-a': [], 'team-b': [] }
    for (let i = 0; i < 10; i++) {
      for (const [key, serving] of [['team-a', i % 2 === 0 ? one : two], ['team-b', i % 2 === 0 ? two : one]] as const) {
        const answer = await call(serving.base, key, '/pets', { method: 'POST', body: JSON.stringify({ name: `${key} ${i}`, categoryId: 1 }) })
        expect(answer.status).toBe(201)
        made[key]?.push((await answer.json()) as Pet)
      }
    }
    const expected = (key: string) => [...shippedPets('default').map((pet) => pet.name), ...(made[key] ?? []).map((pet) => pet.name)]
    // Each team sees its own animals through either replica, and none of the other team's.
    for (const serving of [one, two]) for (const key of ['team-a', 'team-b']) expect(await names(serving.base, key)).toEqual(expected(key))
    expect(made['team-a']?.map((pet) => pet.id)).toEqual(made['team-b']?.map((pet) => pet.id))

    for (const serving of [one, two]) {
      serving.cli.child.kill('SIGKILL')
      await serving.cli.exited
    }
    const again = await start()
    for (const key of ['team-a', 'team-b']) expect(await names(again.base, key)).toEqual(expected(key))
    expect(await (await fetch(`${again.origin}/healthz`)).json()).toEqual({ status: 'ok', store: redis.url, animals: 2 * (FIXTURE_SIZE + 10), stores: 2 })

    await redis.kill()
    await redis.restart()
    for (let attempt = 0; (await fetch(`${again.origin}/healthz`)).status !== 200; attempt++) {
      expect(attempt).toBeLessThan(200)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    for (const key of ['team-a', 'team-b']) expect(await names(again.base, key)).toEqual(expected(key))
    // A new team gets a store of its own from the fixture.
    expect(await names(again.base, 'team-c')).toEqual(shippedPets('default').map((pet) => pet.name))
    // --latency goes with --store: each answer of that replica is held back at least that long.
    const slow = await startServing(['serve', '--isolate', '--store', redis.url, '--port', '0', '--latency', '250'], running, {}, { ANIMALS_MOCK_STORE_SECRET: SECRET })
    const started = performance.now()
    expect(await names(slow.base, 'team-a')).toEqual(expected('team-a'))
    expect(performance.now() - started).toBeGreaterThanOrEqual(249)
    // Neither the secret nor a key reaches any replica's output.
    for (const cli of running) for (const text of [cli.stdout(), cli.stderr()]) for (const word of [SECRET, 'team-a', 'team-b']) expect(text).not.toContain(word)
  })
})
