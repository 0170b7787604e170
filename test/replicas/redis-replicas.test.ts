import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliProcess, startServing } from '../support/cli.js'
import { closedPort } from '../support/deployments.js'
import { shippedPets } from '../support/fixtures.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'

// docs/deploy.md's Redis recipe, run as written (ports changed): redis-server with its append-only
// file, three `serve --store` replicas on loopback, Debian's nginx with plain round robin, six
// teams at once, a replica killed mid-burst, Redis killed and restarted, Redis stopped and back.
const NGINX = '/usr/sbin/nginx'
const runs = hasRedis && existsSync(NGINX)
if (!runs) console.warn('Redis replica tests skipped: redis-server or nginx is absent; .ci/run installs both')

const DOC = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8')
const SECTION = DOC.slice(DOC.indexOf('## One store on Redis'))
const fenced = (lang: string): string => new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'm').exec(SECTION)?.[1] ?? ''
const COMMANDS = fenced('sh').trim().split('\n')
const CONF = fenced('nginx')
const FIXTURE_SIZE = shippedPets('default').length

/** The doc's replica command line for this Redis, with `--port 0`. */
function replicaArgs(redisUrl: string): string[] {
  const words = (COMMANDS[1] ?? '').replace(/^npx animals-mock /, '').replace(/ &$/, '').split(' ')
  return words.map((word, i) => (words[i - 1] === '--port' ? '0' : words[i - 1] === '--store' ? redisUrl : word))
}

type Pet = { id: number; name: string; categoryId: number; status?: string }

const running: CliProcess[] = []
let nginx: { child: ChildProcess; prefix: string } | undefined
let redis: RedisServer
let balancer = ''
const replicas: CliProcess[] = []

async function waitFor(what: string, ready: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; !(await ready().catch(() => false)); attempt++) {
    if (attempt > 400) throw new Error(`${what} did not happen`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe.skipIf(!runs)('three serve --store replicas over one Redis behind nginx, round robin', () => {
  beforeAll(async () => {
    expect(COMMANDS[0]).toMatch(/^redis-server .*--appendonly yes --appendfsync always /)
    redis = await startRedis({ appendfsync: 'always' })
    const origins: string[] = []
    for (let i = 0; i < 3; i++) {
      const serving = await startServing(replicaArgs(redis.url), running)
      replicas.push(serving.cli)
      origins.push(serving.origin)
    }
    let next = 0
    const port = await closedPort()
    const prefix = mkdtempSync(join(tmpdir(), 'animals-nginx-redis-'))
    const conf = CONF.replace(/server 127\.0\.0\.1:\d+/g, () => `server ${new URL(origins[next++] ?? '').host}`).replace(/listen 8080;/, `listen 127.0.0.1:${port};`)
    expect(conf).not.toContain('hash ')
    writeFileSync(join(prefix, 'nginx.conf'), conf)
    const child = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log'), '-g', `daemon off; pid ${join(prefix, 'nginx.pid')};`], { stdio: 'ignore' })
    nginx = { child, prefix }
    balancer = `http://127.0.0.1:${port}`
    await waitFor('nginx answering', async () => (await fetch(`${balancer}/healthz`)).ok)
  })
  afterAll(async () => {
    if (nginx !== undefined) {
      const { child, prefix } = nginx
      child.kill('SIGTERM')
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve))
      rmSync(prefix, { recursive: true, force: true })
    }
    for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
    await redis?.remove()
  })

  const call = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${balancer}/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } })

  it('tells in each replica\'s banner where its animals are: the first loaded the fixture into a new store, the others found it', () => {
    const banners = replicas.map((cli) => cli.stdout())
    expect(banners[0]).toContain(`  animals: ${FIXTURE_SIZE} from fixture default, loaded into a new store\n  store:   ${redis.url}, shared by every replica (--store)\n`)
    for (const banner of banners.slice(1)) expect(banner).toContain(`  animals: ${FIXTURE_SIZE} from the store as the replicas left it\n  store:   ${redis.url}, shared by every replica (--store)\n`)
    for (const [i, banner] of banners.entries()) {
      const origin = new URL(replicas[i]?.stdout().match(/listening on (\S+)/)?.[1] ?? '').origin
      expect(banner).toContain(`  dashboard: ${origin}/dashboard\n`)
      expect(banner).toContain(`  control: ${origin}/__control\n`)
    }
  })

  it('seeds through the balancer what every replica lists, and resets through another replica for all', async () => {
    const control = (path: string, init: RequestInit = {}) => fetch(`${balancer}/__control${path}`, { ...init, headers: { authorization: 'Bearer ops', 'content-type': 'application/json' } })
    const before = ((await (await control('/')).json()) as { animals: number }).animals
    const seeded = await control('/seed', { method: 'POST', body: JSON.stringify({ count: 25, seed: 3 }) })
    expect(seeded.status).toBe(201)
    // Three list requests in a row: nginx sends each to the next replica.
    for (let i = 0; i < 3; i++) expect(((await (await control('/')).json()) as { animals: number }).animals).toBe(before + 25)
    const snapshot = await (await control('/snapshot')).text()
    expect((await control('/snapshot', { method: 'PUT', body: snapshot })).status).toBe(200)
    expect(await (await control('/snapshot')).text()).toBe(snapshot)
    expect(await (await control('/reset', { method: 'POST' })).json()).toEqual({ animals: FIXTURE_SIZE, journal: 0, forcedRules: 0 })
    for (let i = 0; i < 3; i++) expect(((await (await call('ops', '/pets?limit=100')).json()) as Pet[]).length).toBe(FIXTURE_SIZE)
  })

  it('forces answers set through the balancer on whichever replica answers, a rule with times counted across them, and holds every answer back by the latency set', async () => {
    const control = (path: string, init: RequestInit = {}) => fetch(`${balancer}/__control${path}`, { ...init, headers: { authorization: 'Bearer ops', 'content-type': 'application/json' } })
    expect((await control('/forced', { method: 'POST', body: JSON.stringify({ method: 'GET', path: '/pets', status: 503, times: 4 }) })).status).toBe(201)
    // Seven list requests, nginx sending each to the next replica: the first four get the rule, once each.
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await call('ops', '/pets?limit=1')).status)
    expect(statuses).toEqual([503, 503, 503, 503, 200, 200, 200])
    expect(await (await control('/forced')).json()).toEqual({ rules: [] })
    expect((await control('/latency', { method: 'PUT', body: JSON.stringify({ ms: 300 }) })).status).toBe(200)
    try {
      for (let i = 0; i < 3; i++) {
        const started = performance.now()
        expect((await call('ops', '/pets?limit=1')).status).toBe(200)
        // A lower bound, not a timed test: each replica held its answer back at least the latency set through another.
        expect(performance.now() - started).toBeGreaterThanOrEqual(295)
      }
    } finally {
      expect(await (await control('/reset', { method: 'POST' })).json()).toEqual({ animals: FIXTURE_SIZE, journal: 0, forcedRules: 0 })
    }
    expect(await (await control('/latency')).json()).toEqual({})
  })

  it('runs six teams at once, each team\'s checks passing through whichever replica answers', async () => {
    const failures: string[] = []
    const createdIds: number[] = []
    await Promise.all(
      Array.from({ length: 6 }, async (_, t) => {
        const key = `team-${t + 1}-key`
        const check = (ok: boolean, what: string): void => void (ok || failures.push(`${key}: ${what}`))
        const mine: Pet[] = []
        for (let i = 0; i < 8; i++) {
          const status = ['available', 'pending', 'sold'][i % 3]
          const answer = await call(key, '/pets', { method: 'POST', body: JSON.stringify({ name: `${key} pet ${i}`, categoryId: 1 + i, status }) })
          check(answer.status === 201, `creation ${i} answered ${answer.status}`)
          const pet = (await answer.json()) as Pet
          check(answer.headers.get('location') === `/v1/pets/${pet.id}`, `Location of ${pet.id}`)
          mine.push(pet)
        }
        // Each read goes to the next replica in turn: each sees what another stored.
        for (const pet of mine) {
          const read = await call(key, `/pets/${pet.id}`)
          const body = (await read.json()) as Pet
          check(read.status === 200 && body.name === pet.name && read.headers.get('deprecation') !== null, `reads back ${pet.id} (${read.status})`)
        }
        const listed = (await (await call(key, '/pets?limit=100')).json()) as Pet[]
        for (const pet of mine) check(listed.some((each) => each.id === pet.id && each.name === pet.name), `lists ${pet.id}`)
        check(listed.every((pet, i) => i === 0 || pet.id > (listed[i - 1]?.id ?? 0)), 'lists in ascending id order')
        const sold = (await (await call(key, '/pets?status=sold&limit=100')).json()) as Pet[]
        check(sold.every((pet) => pet.status === 'sold'), 'lists only the sold ones by status')
        for (const pet of mine.filter((each) => each.status === 'sold')) check(sold.some((each) => each.id === pet.id), `lists ${pet.id} as sold`)
        check((await call(key, '/pets?limit=101')).status === 400, 'refuses limit=101')
        check((await call('', '/pets')).status === 401, 'refuses no key')
        createdIds.push(...mine.map((pet) => pet.id))
      }),
    )
    expect(failures).toEqual([])
    expect(new Set(createdIds).size).toBe(48)
    expect(Math.min(...createdIds)).toBeGreaterThan(FIXTURE_SIZE)
  })

  it('loses no acknowledged animal when a replica is killed (SIGKILL) in the middle of a burst of creations', async () => {
    const acknowledged: Pet[] = []
    let answered = 0
    let killed: Promise<unknown> | undefined
    const outcomes: number[] = []
    await Promise.all(
      Array.from({ length: 6 }, async (_, t) => {
        for (let i = 0; i < 50; i++) {
          const answer = await call(`burst-${t}`, '/pets', { method: 'POST', body: JSON.stringify({ name: `burst ${t}-${i}`, categoryId: 1 }) }).catch(() => undefined)
          outcomes.push(answer?.status ?? 0)
          if (answer?.status === 201) acknowledged.push((await answer.json()) as Pet)
          else await answer?.arrayBuffer()
          answered += 1
          if (answered === 60) {
            const victim = replicas[0]
            victim?.child.kill('SIGKILL')
            killed = victim?.exited
          }
        }
      }),
    )
    await killed
    expect(replicas[0]?.child.signalCode).toBe('SIGKILL')
    expect(acknowledged.length).toBeGreaterThan(200)
    expect(new Set(acknowledged.map((pet) => pet.id)).size).toBe(acknowledged.length)
    for (const pet of acknowledged) {
      const read = await call('after-the-kill', `/pets/${pet.id}`)
      expect([read.status, ((await read.json()) as Pet).name]).toEqual([200, pet.name])
    }
    const listed = (await (await call('after-the-kill', '/pets?limit=100')).json()) as Pet[]
    expect(listed).toHaveLength(100)
    console.log(`burst: ${acknowledged.length} of 300 creations acknowledged, answers ${[...new Set(outcomes)].sort().join(', ')}; every acknowledged one found`)
  })

  it('keeps every acknowledged animal when Redis is killed and started again from its append-only file', async () => {
    const made: Pet[] = []
    for (let i = 0; i < 30; i++) {
      const answer = await call('durable', '/pets', { method: 'POST', body: JSON.stringify({ name: `durable ${i}`, categoryId: 2 }) })
      expect(answer.status).toBe(201)
      made.push((await answer.json()) as Pet)
    }
    await redis.kill()
    await redis.restart()
    await waitFor('the replicas back on Redis', async () => (await call('durable', '/pets?limit=1')).status === 200)
    for (const pet of made) expect(((await (await call('durable', `/pets/${pet.id}`)).json()) as Pet).name).toBe(pet.name)
  })

  it('answers 503 store_unavailable while Redis is stopped, /healthz too, and recovers when it is back', async () => {
    await redis.stop()
    try {
      for (let i = 0; i < 4; i++) {
        const answer = await call('outage', '/pets')
        expect(answer.status).toBe(503)
        expect(answer.headers.get('retry-after')).toBe('1')
        expect(await answer.json()).toMatchObject({ code: 'store_unavailable', status: 503 })
      }
      const health = await fetch(`${balancer}/healthz`)
      expect([health.status, ((await health.json()) as { code: string }).code]).toEqual([503, 'store_unavailable'])
    } finally {
      await redis.restart()
    }
    await waitFor('the replicas back on Redis', async () => (await call('outage', '/pets?limit=1')).status === 200)
    const health = (await (await fetch(`${balancer}/healthz`)).json()) as { status: string; store: string }
    expect(health).toMatchObject({ status: 'ok', store: redis.url })
  })
})
