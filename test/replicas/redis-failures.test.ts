import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { connectRedis, type RedisConnection } from '../../src/redis/connection.js'
import { DATA_LOST, DATA_RELOADED } from '../../src/redis/epoch.js'
import { type CliProcess, runCli, spawnCli, startServing } from '../support/cli.js'
import { shippedPets } from '../support/fixtures.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'

// What ordinary Redis operations do to `serve --store`, against Debian's redis-server: frozen
// (SIGSTOP), loading its append-only file after a restart, full (`maxmemory` with `noeviction`, as
// managed Redis sets it), emptied (FLUSHDB), and wrong at start (a password, a database). No
// answer is ever a 500; /healthz tells the truth; a request waits at most --store-timeout.
const KEY = 'team-a-key-0001'
const OTHER = 'team-b-key-0002'
const SECRET = 'f'.repeat(16) + '0123456789abcdef'
const FIXTURE = shippedPets('default').length

type Answer = { readonly status: number; readonly retryAfter: string | null; readonly body: { code?: string; message?: string } & Record<string, unknown>; readonly ms: number }

async function ask(url: string, init: { key?: string; method?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`
  const started = performance.now()
  const response = await fetch(url, { method: init.method ?? 'GET', headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) })
  const text = await response.text()
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text === '' ? {} : (JSON.parse(text) as Answer['body']), ms: performance.now() - started }
}

/** Asks until `done` holds of the answer (at most `tries` times, 50 ms apart), and gives the answers seen. */
async function until(asking: () => Promise<Answer>, done: (answer: Answer) => boolean, tries = 400): Promise<Answer[]> {
  const seen: Answer[] = []
  for (let attempt = 0; attempt < tries; attempt++) {
    const answer = await asking()
    seen.push(answer)
    if (done(answer)) return seen
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`never: ${JSON.stringify(seen.at(-1))}`)
}

describe.skipIf(!hasRedis)('serve --store through ordinary Redis operations', () => {
  const running: CliProcess[] = []
  const servers: RedisServer[] = []
  const connections: RedisConnection[] = []
  afterEach(() => {
    for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
  })
  afterAll(async () => {
    for (const connection of connections) await connection.close()
    for (const server of servers) await server.remove()
  })
  const redisWith = async (args: readonly string[] = []): Promise<{ redis: RedisServer; admin: RedisConnection }> => {
    const redis = await startRedis({ appendfsync: 'everysec', args })
    servers.push(redis)
    const admin = await connectRedis({ url: redis.url, timeoutMs: 5000 })
    connections.push(admin)
    return { redis, admin }
  }

  it('answers within --store-timeout while Redis is frozen, and at once what needs no store', async () => {
    const { redis } = await redisWith()
    const { base, origin } = await startServing(['serve', '--store', redis.url, '--store-timeout', '3000', '--api-key', KEY, '--port', '0', '--quiet'], running)
    expect((await ask(`${base}/pets`, { key: KEY })).status).toBe(200)
    redis.pause()
    try {
      // A request that needs the store: 503 at its one deadline, not a deadline per command (a step, then the journal); /healthz the same meanwhile.
      const [stuck, health] = await Promise.all([ask(`${base}/pets`, { key: KEY }), ask(`${origin}/healthz`)])
      expect(stuck).toMatchObject({ status: 503, retryAfter: '1', body: { code: 'store_unavailable', message: expect.stringContaining('did not answer') } })
      expect(stuck.ms).toBeLessThan(5000)
      expect(health).toMatchObject({ status: 503, retryAfter: '1', body: { code: 'store_unavailable' } })
      expect(health.ms).toBeLessThan(5000)
      // What needs no store: a request without its key, an unknown path, a wrong method, bad input, all at once.
      for (const [path, key, method, status] of [['/pets', undefined, 'GET', 401], ['/nothing', KEY, 'GET', 404], ['/pets/7', KEY, 'DELETE', 405], ['/pets?limit=0', KEY, 'GET', 400]] as const) {
        const answer = await ask(`${base}${path}`, { ...(key === undefined ? {} : { key }), method })
        expect(answer.status, path).toBe(status)
        expect(answer.ms, path).toBeLessThan(1500)
      }
    } finally {
      redis.resume()
    }
    await until(() => ask(`${base}/pets`, { key: KEY }), (answer) => answer.status === 200)
  })

  it('answers 503 with the reason while Redis loads its data after a restart, /healthz too, and serves once it has', async () => {
    const { redis, admin } = await redisWith()
    const { cli, base, origin } = await startServing(['serve', '--store', redis.url, '--api-key', KEY, '--port', '0', '--quiet'], running)
    expect((await ask(`${base}/pets`, { key: KEY, method: 'POST', body: { name: 'Kept', categoryId: 1 } })).status).toBe(201)
    // Enough data that loading it, a key at a time, takes seconds (key-load-delay: Redis's own knob for its tests).
    await admin.command(['EVAL', "for i = 1, 20000 do redis.call('SET', 'filler:' .. i, 'x') end return 1", '0'])
    await redis.stop()
    await redis.restart(['--key-load-delay', '200', '--loading-process-events-interval-bytes', '1024'], { loaded: false })
    const health = await until(() => ask(`${origin}/healthz`), (answer) => answer.status === 503 && String(answer.body.message).includes('LOADING'))
    expect(health.at(-1)).toMatchObject({ retryAfter: '1', body: { code: 'store_unavailable' } })
    expect(await ask(`${base}/pets`, { key: KEY })).toMatchObject({ status: 503, retryAfter: '1', body: { code: 'store_unavailable', message: expect.stringContaining('LOADING') } })
    const loaded = await until(() => ask(`${origin}/healthz`), (answer) => answer.status === 200, 600)
    expect(loaded.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true)
    const names = ((await ask(`${base}/pets?limit=100`, { key: KEY })).body as unknown as { name: string }[]).map((pet) => pet.name)
    expect(names).toContain('Kept')
    expect(cli.stderr()).toBe('')
  })

  it('answers 503, never 500, while Redis is full (maxmemory, noeviction): creations and resets; reads go on; /healthz says so; a refused snapshot leaves nothing', async () => {
    const { redis, admin } = await redisWith()
    const { base, origin } = await startServing(['serve', '--isolate', '--store', redis.url, '--api-key', KEY, '--api-key', OTHER, '--port', '0', '--quiet'], running, {}, { ANIMALS_MOCK_STORE_SECRET: SECRET })
    for (const key of [KEY, OTHER]) expect((await ask(`${base}/pets`, { key })).status).toBe(200)
    const used = Number(/used_memory:(\d+)/.exec(String(await admin.command(['INFO', 'memory'])))?.[1])
    await admin.command(['CONFIG', 'SET', 'maxmemory-policy', 'noeviction'])
    await admin.command(['CONFIG', 'SET', 'maxmemory', String(used + 400_000)])
    try {
      const statuses: number[] = []
      for (let i = 0; i < 600 && !statuses.includes(503); i++) {
        const answer = await ask(`${base}/pets`, { key: KEY, method: 'POST', body: { name: `Filler ${i} ${'x'.repeat(2000)}`, categoryId: 1 } })
        statuses.push(answer.status)
        if (answer.status === 503) expect(answer).toMatchObject({ retryAfter: '1', body: { code: 'store_unavailable', message: expect.stringContaining('OOM') } })
      }
      expect(new Set(statuses)).toEqual(new Set([201, 503]))
      // The other team reads on; what writes is refused as unavailable, never as a bug.
      expect((await ask(`${base}/pets`, { key: OTHER })).status).toBe(200)
      expect(await ask(`${origin}/__control/reset`, { key: OTHER, method: 'POST' })).toMatchObject({ status: 503, body: { code: 'store_unavailable' } })
      expect(await ask(`${origin}/healthz`)).toMatchObject({ status: 503, body: { code: 'store_unavailable', message: expect.stringContaining('OOM') } })
      const big = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `Snapshot ${i} ${'y'.repeat(200)}`, categoryId: 1 }))
      expect(await ask(`${origin}/__control/snapshot`, { key: OTHER, method: 'PUT', body: big })).toMatchObject({ status: 503, body: { code: 'store_unavailable' } })
      expect(((await admin.command(['KEYS', '*loading*'])) as string[]).filter((key) => !key.endsWith('started'))).toEqual([])
    } finally {
      await admin.command(['CONFIG', 'SET', 'maxmemory', '0'])
    }
    await until(() => ask(`${origin}/healthz`), (answer) => answer.status === 200)
    expect((await ask(`${base}/pets`, { key: KEY, method: 'POST', body: { name: 'After', categoryId: 1 } })).status).toBe(201)
  })

  it('opens two connections, one for the reads that copy many animals, and says in /healthz when Redis refuses it (maxclients)', async () => {
    // Room for the admin's connection and one of the replica's: its second is refused.
    const { redis } = await redisWith(['--maxclients', '2'])
    const { base, origin } = await startServing(['serve', '--store', redis.url, '--api-key', KEY, '--port', '0', '--quiet', '--store-timeout', '500'], running)
    expect((await ask(`${base}/pets/1`, { key: KEY })).status).toBe(200)
    const health = await ask(`${origin}/healthz`)
    expect(health).toMatchObject({ status: 503, retryAfter: '1', body: { code: 'store_unavailable', message: expect.stringContaining('the connection for control reads') } })
    expect(await ask(`${origin}/__control/animals?name=a`, { key: KEY })).toMatchObject({ status: 503, retryAfter: '1', body: { code: 'store_unavailable' } })
  })

  it('notices the store\'s data gone (FLUSHDB), says so in /healthz and its log, and serves the fixture again, on every replica', async () => {
    const { redis, admin } = await redisWith()
    const start = () => startServing(['serve', '--store', redis.url, '--api-key', KEY, '--port', '0', '--quiet'], running)
    const [one, two] = [await start(), await start()]
    expect((await ask(`${one.base}/pets`, { key: KEY, method: 'POST', body: { name: 'Before the flush', categoryId: 1 } })).body).toMatchObject({ id: FIXTURE + 1 })
    // The second replica keeps this list's answer, of the store's revision before the flush.
    expect((await ask(`${two.base}/pets?limit=100`, { key: KEY })).body).toHaveLength(FIXTURE + 1)
    await admin.command(['FLUSHDB'])
    // Not an empty store from id 1: the data is gone, said as it is, and loaded again.
    const lost = await ask(`${one.base}/pets`, { key: KEY })
    expect(lost).toMatchObject({ status: 503, retryAfter: '1', body: { code: 'store_unavailable', message: expect.stringContaining(DATA_LOST) } })
    await until(() => ask(`${one.origin}/healthz`), (answer) => answer.status === 200)
    const health = await ask(`${one.origin}/healthz`)
    expect(health.body).toMatchObject({ status: 'ok', animals: FIXTURE, dataLostAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
    expect(one.cli.stderr()).toBe(`animals-mock: ${DATA_LOST}\n`)
    // The other replica finds the data loaded again: the next id after the fixture's, and no
    // answer it kept from before (the store's revision there, as after the first load, is the same again).
    expect((await ask(`${two.base}/pets`, { key: KEY, method: 'POST', body: { name: 'After', categoryId: 1 } })).body).toMatchObject({ id: FIXTURE + 1 })
    const listed = await ask(`${two.base}/pets?limit=100`, { key: KEY })
    expect(listed.status).toBe(200)
    expect(listed.body).toHaveLength(FIXTURE + 1)
    expect(listed.body).toMatchObject({ [FIXTURE]: { name: 'After' } })
    expect((await ask(`${one.base}/pets/${FIXTURE + 1}`, { key: KEY })).body).toMatchObject({ name: 'After' })
    // It says so too: the data it served went, and another replica loaded it again.
    expect(two.cli.stderr()).toBe(`animals-mock: ${DATA_RELOADED}\n`)
    expect((await ask(`${two.origin}/healthz`)).body).toMatchObject({ status: 'ok', dataLostAt: expect.stringMatching(/^\d{4}-/) })
    expect(one.cli.stderr()).toBe(`animals-mock: ${DATA_LOST}\n`)
  })

  it('names the cause at start: a wrong password or no such database stops it (exit 2), an unreachable Redis is waited for', async () => {
    const { redis } = await redisWith(['--requirepass', 'right-password-1'])
    const url = new URL(redis.url)
    const quick = ['--store-timeout', '500', '--port', '0', '--quiet']
    const [refused, noPassword, noDatabase] = await Promise.all([
      runCli(['serve', '--store', `redis://:wrong-password@${url.host}`, ...quick]),
      runCli(['serve', '--store', redis.url, ...quick]),
      runCli(['serve', '--store', `redis://:right-password-1@${url.host}/99`, ...quick]),
    ])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toBe(`animals-mock: --store redis://:***@${url.host}: Redis refused the user or password in the URL (WRONGPASS invalid username-password pair or user is disabled.)\n`)
    expect(noPassword.code).toBe(2)
    expect(noPassword.stderr).toMatch(/^animals-mock: --store redis:\/\/127\.0\.0\.1:\d+: Redis needs a password: give it in the URL \(redis:\/\/:<password>@host:port\) \(NOAUTH /)
    expect(noDatabase.code).toBe(2)
    expect(noDatabase.stderr).toBe(`animals-mock: --store redis://:***@${url.host}/99: Redis has no such database: the URL's /<db> is past the databases it has (16 unless configured) (ERR DB index is out of range)\n`)
    expect(refused.stderr + noDatabase.stderr).not.toContain('wrong-password')
    await redis.stop()
    const waiting = spawnCli(['serve', '--store', `redis://:right-password-1@${url.host}`, ...quick])
    running.push(waiting)
    for (let attempt = 0; !waiting.stderr().includes('\n'); attempt++) {
      expect(attempt).toBeLessThan(400)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(waiting.stderr()).toBe(`animals-mock: waiting for the store at redis://:***@${url.host}: Redis cannot be reached: connect ECONNREFUSED ${url.host}\n`)
    expect(waiting.child.exitCode).toBeNull()
  })
})
