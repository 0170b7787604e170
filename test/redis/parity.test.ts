import { describe, expect, it } from 'vitest'
import type { RedisConnection } from '../../src/redis/connection.js'
import { type Handler, isDropped, type PlainRequest, type Reply } from '../../src/service/http.js'
import type { Pet } from '../../src/spec/animals-service.js'
import { MAX_FORCED_RULES } from '../../src/store/scope.js'
import { plainRequest } from '../support/core-fake.js'
import { memoryReplica, redisReplica } from '../support/fake-over.js'
import { useRedis } from '../support/redis-harness.js'
import { hasRedis } from '../support/redis-server.js'

const pets: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
  { id: 3, name: 'Kit', categoryId: 2 },
]
const KEY = 'team-a'
const OTHER = 'team-b'
const START = Date.UTC(2026, 0, 1)

/** One request of a scenario: to the control API or to the animals API, with a key (`null`: none). */
type Step = { readonly to: 'control' | 'api'; readonly method?: string; readonly path: string; readonly search?: string; readonly body?: unknown; readonly key?: string | null; readonly prefer?: string }

/** What a step got, as both implementations must give it: labels of stores named by their first appearance. */
type Outcome = { readonly status: number | 'dropped'; readonly headers?: Readonly<Record<string, string>>; readonly body?: unknown; readonly delayMs: number }

function requestOf(step: Step): PlainRequest {
  const headers: Record<string, string> = {}
  const key = step.key === undefined ? KEY : step.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  if (step.prefer !== undefined) headers.prefer = step.prefer
  if (step.body !== undefined) headers['content-type'] = 'application/json'
  return plainRequest({
    method: step.method ?? 'GET',
    basePath: step.to === 'control' ? '/__control' : '/v1',
    path: step.path,
    search: step.search ?? '',
    headers,
    body: step.body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(step.body)),
  })
}

/** Runs `steps` in order, each through `handlers[i % handlers.length]` (replicas in turn), and says what each got. */
async function run(steps: readonly Step[], replicas: readonly { readonly api: Handler; readonly control: Handler }[]): Promise<Outcome[]> {
  const labels = new Map<string, string>()
  const named = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(named)
    if (typeof value !== 'object' || value === null) return value
    return Object.fromEntries(
      Object.entries(value).map(([field, inner]) => {
        if ((field !== 'tenant' && field !== 'label') || typeof inner !== 'string') return [field, named(inner)]
        if (!labels.has(inner)) labels.set(inner, `store-${labels.size + 1}`)
        return [field, labels.get(inner)]
      }),
    )
  }
  const outcomes: Outcome[] = []
  for (const [index, step] of steps.entries()) {
    const replica = replicas[index % replicas.length]
    if (replica === undefined) throw new Error('no replica')
    const reply: Reply = await (step.to === 'control' ? replica.control : replica.api).handle(requestOf(step))
    if (isDropped(reply)) {
      outcomes.push({ status: 'dropped', delayMs: reply.delayMs ?? 0 })
      continue
    }
    const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : new TextDecoder().decode(reply.body)
    const body = text === '' ? undefined : (named(JSON.parse(text)) as { stores?: { label: string }[] })
    // Stores are listed in the order they were made in memory, of their last use in Redis.
    body?.stores?.sort((a, b) => a.label.localeCompare(b.label))
    outcomes.push({ status: reply.status, headers: { ...reply.headers }, body, delayMs: reply.delayMs ?? 0 })
  }
  return outcomes
}

const rule = (body: unknown, key?: string | null): Step => ({ to: 'control', method: 'POST', path: '/forced', body, ...(key === undefined ? {} : { key }) })
const api = (path: string, fields: Partial<Step> = {}): Step => ({ to: 'api', path, ...fields })
const control = (path: string, fields: Partial<Step> = {}): Step => ({ to: 'control', path, ...fields })

/** Forced rules and latency set through one replica, met through the other, and the journal of both: as the in-memory fake answers. */
const SHARED_STEPS: readonly Step[] = [
  rule({ method: 'get', path: '/pets', status: 503, times: 2 }),
  control('/forced'),
  api('/pets', { search: 'limit=1' }),
  control('/forced'),
  api('/pets', { search: 'limit=1' }),
  control('/forced'),
  api('/pets', { search: 'limit=1' }),
  rule({ path: '/pets/*', delayMs: 40 }),
  api('/pets/1'),
  api('/pets/abc'),
  api('/pets/1', { method: 'HEAD' }),
  rule({ method: 'POST', drop: true, delayMs: 5 }),
  api('/pets', { method: 'POST', body: { name: 'Dropped', categoryId: 1 } }),
  api('/pets', { search: 'limit=100' }),
  control('/forced/2', { method: 'DELETE' }),
  control('/forced/2', { method: 'DELETE' }),
  control('/latency', { method: 'PUT', body: { ms: 25 } }),
  control('/latency'),
  api('/pets/1'),
  api('/pets', { method: 'POST', body: { name: 'Dropped again', categoryId: 1 } }),
  control('/latency', { method: 'PUT', body: { minMs: 10, maxMs: 20 } }),
  api('/pets/2'),
  control('/'),
  control('/forced', { method: 'DELETE' }),
  control('/'),
  api('/pets', { method: 'POST', body: { name: 'Kept', categoryId: 1 } }),
  // A delay that runs out on a request the API answers at once: the request keeps its delay.
  rule({ path: '/nothing', delayMs: 7, times: 1 }),
  api('/nothing'),
  api('/nothing'),
  rule({ status: 418, code: 'teapot', message: 'Short and stout.' }),
  api('/pets/3'),
  api('/nothing'),
  // A request's own Prefer comes before every rule.
  api('/pets', { search: 'limit=1', prefer: 'code=200' }),
  api('/pets', { search: 'limit=1', prefer: 'code=500' }),
  rule({ status: 503, stauts: 1 }),
  control('/latency', { method: 'PUT', body: { ms: -1 } }),
  control('/forced'),
  control('/journal', { search: 'limit=5' }),
  control('/journal', { search: 'status=503&method=get' }),
  control('/journal', { search: 'path=/pets/1&limit=2' }),
  control('/journal', { search: 'path=/v1/pets/1&since=10&limit=1' }),
  control('/journal', { search: 'tenant=shared&limit=1' }),
  control('/journal', { search: 'colour=red' }),
  control('/journal', { search: 'method=post' }),
  control('/reset', { method: 'POST' }),
  control('/forced'),
  control('/latency'),
  control('/journal'),
  api('/pets', { search: 'limit=100' }),
  // A request without a key needs no store: it is held back by the latency its replica knows, so
  // each replica meets the reset first (a request with a key reads the rules as they are).
  api('/pets', { search: 'limit=1' }),
  api('/pets', { key: null }),
  control('/journal'),
  control('/journal', { method: 'DELETE' }),
  control('/'),
  control('/animals', { search: 'limit=2' }),
  control('/animals', { search: 'status=sold&offset=0' }),
  control('/animals', { search: 'from=2&limit=1' }),
  control('/animals', { search: 'from=99' }),
  control('/animals', { search: 'name=E&limit=1' }),
  control('/animals', { search: 'offset=2&limit=5' }),
  control('/animals', { search: 'limit=0' }),
  control('/stores'),
  control('/openapi.yaml', { method: 'POST' }),
]

/** Under isolation: each key's rules, latency and journal its own, those set without a key every store's. */
const ISOLATED_STEPS: readonly Step[] = [
  rule({ status: 500 }, KEY),
  api('/pets', { key: OTHER }),
  api('/pets', { key: KEY }),
  rule({ status: 502, path: '/pets/*' }, null),
  api('/pets/1', { key: KEY }),
  api('/pets/1', { key: OTHER }),
  control('/forced', { key: OTHER }),
  control('/forced', { key: KEY }),
  control('/forced', { key: null }),
  control('/forced/1', { method: 'DELETE', key: OTHER }),
  control('/forced/1', { method: 'DELETE', key: KEY }),
  api('/pets/1', { key: KEY }),
  control('/latency', { method: 'PUT', body: { ms: 30 }, key: KEY }),
  api('/pets', { key: KEY }),
  api('/pets', { key: OTHER }),
  control('/latency', { key: KEY }),
  control('/latency', { key: OTHER }),
  control('/latency', { method: 'PUT', body: { ms: 5 }, key: null }),
  api('/pets', { key: KEY }),
  control('/latency', { key: KEY }),
  rule({ status: 409, times: 1 }, OTHER),
  control('/', { key: OTHER }),
  control('/reset', { method: 'POST', key: OTHER }),
  control('/forced', { key: null }),
  api('/pets', { key: OTHER }),
  control('/forced', { method: 'DELETE', key: null }),
  control('/forced', { key: null }),
  api('/pets/1', { key: OTHER }),
  api('/pets', { key: null }),
  control('/journal', { key: KEY }),
  control('/journal', { key: OTHER, search: 'limit=2' }),
  control('/journal', { key: null, search: 'limit=3' }),
  control('/journal', { method: 'DELETE', key: KEY }),
  control('/', { key: KEY }),
  control('/', { key: OTHER }),
  control('/journal', { method: 'DELETE', key: null }),
  control('/journal', { key: null }),
  // Rules of two stores and of every store, listed together in the order they were added.
  rule({ status: 501, path: '/a' }, KEY),
  rule({ status: 502, path: '/b' }, OTHER),
  rule({ status: 503, path: '/c' }, KEY),
  control('/forced', { key: null }),
  // A store's own latency leaves every store's for the others.
  control('/latency', { method: 'PUT', body: { ms: 11 }, key: null }),
  control('/latency', { method: 'PUT', body: { ms: 9 }, key: KEY }),
  api('/pets', { key: OTHER }),
  api('/pets', { key: KEY }),
  control('/animals', { key: OTHER, search: 'status=available' }),
  control('/animals', { key: null }),
  control('/stores', { key: null }),
]

describe.skipIf(!hasRedis)('forced rules, latency and the journal in Redis', () => {
  const harness = useRedis()
  let prefixes = 0

  async function redisReplicas(options: { isolate?: boolean; wrap?: (connection: RedisConnection) => RedisConnection; now?: () => number } = {}) {
    const prefix = `f${++prefixes}:`
    const replicas: { api: Handler; control: Handler }[] = []
    for (let replica = 0; replica < 2; replica++) {
      const connected = await harness.connect()
      const { core, control } = await redisReplica(options.wrap?.(connected) ?? connected, prefix, { pets, isolate: options.isolate === true, idleMs: 60_000, now: options.now ?? (() => START) })
      replicas.push({ api: core, control })
    }
    return replicas
  }

  function inMemory(isolate: boolean) {
    const { core, control } = memoryReplica({ pets, isolate })
    return [{ api: core, control }]
  }

  it('answers each step of forced rules and latency as the in-memory fake does, set through one replica and met through the other', async () => {
    const expected = await run(SHARED_STEPS, inMemory(false))
    const got = await run(SHARED_STEPS, await redisReplicas())
    for (const [index, step] of SHARED_STEPS.entries()) expect(got[index], `step ${index}: ${JSON.stringify(step)}`).toEqual(expected[index])
    // The scenario meets what it is about: a forced answer, a delay, a drop, latency, a refusal, and a rule that ran out.
    expect(expected.map((outcome) => outcome.status)).toEqual(expect.arrayContaining([503, 'dropped', 418, 400, 404, 204, 201]))
    expect(expected[8]?.delayMs).toBe(40)
    expect(expected[21]?.delayMs).toBe(15)
  })

  it('keeps each key its own rules and latency under isolation, and those set without a key for every store, as in memory', async () => {
    const expected = await run(ISOLATED_STEPS, inMemory(true))
    const got = await run(ISOLATED_STEPS, await redisReplicas({ isolate: true }))
    for (const [index, step] of ISOLATED_STEPS.entries()) expect(got[index], `step ${index}: ${JSON.stringify(step)}`).toEqual(expected[index])
    expect(expected[1]?.status).toBe(200)
    expect(expected[2]?.status).toBe(500)
    expect(expected[5]?.status).toBe(502)
  })

  it(`refuses the rule past ${MAX_FORCED_RULES} in a scope with 507 rules_full, as in memory, and takes one again once a rule goes`, async () => {
    const steps = [...Array.from({ length: MAX_FORCED_RULES + 1 }, () => rule({ status: 500, path: '/nowhere' })), control('/forced/1', { method: 'DELETE' }), rule({ status: 501, path: '/nowhere' })]
    const got = await run(steps, await redisReplicas())
    const expected = await run(steps, inMemory(false))
    expect(got.at(-3)).toEqual(expected.at(-3))
    expect(got.at(-3)).toMatchObject({ status: 507, body: { code: 'rules_full' } })
    expect(got.slice(-2).map((outcome) => outcome.status)).toEqual([204, 201])
  })

  it('counts a rule with times across replicas in one atomic step: of 40 requests at once through two replicas, exactly 10 get it', async () => {
    const replicas = await redisReplicas()
    await run([rule({ status: 503, times: 10 })], replicas)
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => replicas[i % 2]?.api.handle(requestOf(api('/pets', { search: 'limit=1' })))))
    const statuses = answers.map((reply) => (reply === undefined || isDropped(reply) ? 0 : reply.status))
    expect(statuses.filter((status) => status === 503)).toHaveLength(10)
    expect(statuses.filter((status) => status === 200)).toHaveLength(30)
  })

  /** A connection that moves a store's scope on before each of the next `left()` steps a request runs: another replica changing a rule each time. */
  const moving = (counter: { left: number }) => (connection: RedisConnection): RedisConnection => ({
    ...connection,
    async script(source, keys, args) {
      if (counter.left > 0 && source.includes("return {'stale'}")) {
        counter.left -= 1
        await connection.command(['INCR', keys[0] as string])
      }
      return connection.script(source, keys, args)
    },
  })

  it('starts a request again on rules read afresh each time they changed under it, and answers 503 after the fifth time in a row', async () => {
    for (const [changes, status] of [[4, 200], [5, 503]] as const) {
      const counter = { left: 0 }
      const [replica] = await redisReplicas({ wrap: moving(counter) })
      await replica?.api.handle(requestOf(api('/pets')))
      counter.left = changes
      const reply = await replica?.api.handle(requestOf(api('/pets', { search: 'limit=1' })))
      expect(reply !== undefined && !isDropped(reply) && reply.status, `${changes} changes`).toBe(status)
      if (status === 503 && reply !== undefined && !isDropped(reply)) {
        expect(JSON.parse(String(reply.body))).toEqual({ code: 'store_unavailable', status: 503, message: 'The forced rules or latency changed during this request 5 times in a row: try again.' })
        expect(reply.headers['retry-after']).toBe('1')
      }
      expect(counter.left).toBe(0)
    }
  })

  it('refuses a rule past 10,000 in every store together with 507, naming that bound', async () => {
    const replicas = await redisReplicas()
    const counted = await harness.connect()
    const prefix = `f${prefixes}:`
    await counted.command(['SET', `${prefix}rules:count`, '9999'])
    const [last, past] = await run([rule({ status: 500 }), rule({ status: 500 })], replicas)
    expect(last?.status).toBe(201)
    expect(past).toMatchObject({ status: 507, body: { code: 'rules_full', message: 'At most 10000 forced rules can be in force in every store together; remove some first.' } })
    // A rule removed makes room again.
    expect((await run([control('/forced', { method: 'DELETE' }), rule({ status: 500 })], replicas)).map((outcome) => outcome.status)).toEqual([204, 201])
    expect(await counted.command(['GET', `${prefix}rules:count`])).toBe('10000')
  })

  it('drops the rules, latency and journal of a store dropped for being idle, giving their room back', async () => {
    let clock = START
    const prefix = `f${++prefixes}:`
    const connection = await harness.connect()
    const { core, control: controlApi } = await redisReplica(connection, prefix, { pets, isolate: true, idleMs: 60_000, now: () => clock })
    const replica = { api: core, control: controlApi }
    await run([rule({ status: 500 }, KEY), control('/latency', { method: 'PUT', body: { ms: 50 }, key: KEY }), rule({ status: 501 }, null), api('/pets', { key: KEY })], [replica])
    expect(await connection.command(['GET', `${prefix}rules:count`])).toBe('2')
    clock += 60_000
    const [other, rules, journal, mine] = await run([api('/pets', { key: OTHER }), control('/forced', { key: null }), control('/journal', { key: null }), api('/pets', { key: KEY })], [replica])
    expect(other?.status).toBe(501)
    expect(rules?.body).toEqual({ rules: [{ id: 2, tenant: null, status: 501 }] })
    // The dropped store's journal went with it: only the request that came after is left.
    expect(journal?.body).toMatchObject({ total: 1, entries: [{ seq: 2, status: 501 }] })
    expect(await connection.command(['GET', `${prefix}rules:count`])).toBe('1')
    // Made again from the fixture, the key's store has no rule and no latency of its own left.
    expect(mine).toMatchObject({ status: 501, delayMs: 0 })
  })

  it('resets the one store without isolation: back to the fixture, without its rules, latency and journal', async () => {
    const [replica] = await redisReplicas()
    if (replica === undefined) throw new Error('no replica')
    await run([rule({ status: 500, path: '/x' }), control('/latency', { method: 'PUT', body: { ms: 3 } }), api('/pets', { method: 'POST', body: { name: 'Gone', categoryId: 1 } })], [replica])
    expect((await run([control('/reset', { method: 'POST' })], [replica]))[0]?.status).toBe(200)
    const [rules, latency, journal, listed] = await run([control('/forced'), control('/latency'), control('/journal'), api('/pets', { search: 'limit=100' })], [replica])
    expect([rules?.body, latency?.body, (journal?.body as { total: number }).total, listed?.body]).toEqual([{ rules: [] }, {}, 0, pets])
  })
})
