// One table of cases about what a store keeps, run over every adapter of the store port (memory and
// Redis, test/conformance/store-adapters.test.ts): the same fake must answer each the same way,
// whichever backend keeps its state. A new case is one row here, run over both.
import { expect } from 'vitest'
import { isDropped, type PlainRequest } from '../../src/service/http.js'
import type { Pet } from '../../src/spec/animals-service.js'
import { plainRequest } from '../support/core-fake.js'
import type { FakeSetup, Replica } from '../support/fake-over.js'

/** What a case gets: replicas of one fake over the adapter under test, and what only the backend can tell. */
export type StoreCaseContext = {
  /** Two replicas of one new fake (in memory, the one fake twice: there is one process). */
  replicas(setup: FakeSetup): Promise<readonly [Replica, Replica]>
  /** How many keys of loads under way the backend still holds (Redis's `loading` keys; none in memory). */
  leftovers(): Promise<number>
}

export type StoreCase = { readonly name: string; run(context: StoreCaseContext): Promise<void> }

/** What one request got. */
type Answer = { readonly status: number | 'dropped'; readonly text: string; readonly delayMs: number; readonly headers: Readonly<Record<string, string>> }

/** Sends a request to a replica's API (`/v1`) or control API (`/__control`), with a key unless `key` is null. */
export async function send(replica: Replica, to: 'api' | 'control', method: string, path: string, options: { readonly search?: string; readonly body?: string; readonly key?: string | null } = {}): Promise<Answer> {
  const key = options.key === undefined ? 'store-case-key' : options.key
  const request: PlainRequest = plainRequest({
    method,
    path,
    basePath: to === 'api' ? '/v1' : '/__control',
    search: options.search ?? '',
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : new TextEncoder().encode(options.body),
  })
  const reply = await (to === 'api' ? replica.core.handle(request) : replica.control.handle(request))
  if (isDropped(reply)) return { status: 'dropped', text: '', delayMs: reply.delayMs ?? 0, headers: {} }
  return { status: reply.status, text: reply.body ?? '', delayMs: reply.delayMs ?? 0, headers: { ...reply.headers } }
}

/** The ids of a list answer as written, exactly: past 2^53 a JSON number would lose its last digits. */
const idsOf = (text: string): string[] => [...text.matchAll(/"id":(-?[0-9]+)/g)].map(([, id = '']) => id)

const create = (replica: Replica, name = 'New', key?: string) => send(replica, 'api', 'POST', '/pets', { body: JSON.stringify({ name, categoryId: 1 }), ...(key === undefined ? {} : { key }) })
const load = (replica: Replica, text: string, key?: string) => send(replica, 'control', 'PUT', '/snapshot', { body: text, ...(key === undefined ? {} : { key }) })
const list = (replica: Replica, search = 'limit=100', key?: string) => send(replica, 'api', 'GET', '/pets', { search, ...(key === undefined ? {} : { key }) })
const messageOf = (answer: Answer): string => (JSON.parse(answer.text) as { message: string }).message
const animal = (id: string, name = 'A') => `{"id":${id},"name":"${name}","categoryId":1}`

export const STORE_CASES: readonly StoreCase[] = [
  {
    name: 'lists ids past 2^53 of different lengths in ascending order, creates after the highest, and pages from one',
    async run({ replicas }) {
      const [a, b] = await replicas({ pets: [] })
      const ids = ['100000000000000000', '99999999999999999', '100000000000000001', '-5', '9007199254740993']
      expect((await load(a, `[${ids.map((id) => animal(id)).join(',')}]`)).status).toBe(200)
      expect(idsOf((await list(b)).text)).toEqual(['-5', '9007199254740993', '99999999999999999', '100000000000000000', '100000000000000001'])
      const made = await create(a)
      expect([made.status, idsOf(made.text)]).toEqual([201, ['100000000000000002']])
      expect(idsOf((await list(b, 'limit=2')).text)).toEqual(['-5', '9007199254740993'])
      const paged = await send(b, 'control', 'GET', '/animals', { search: 'from=100000000000000000&limit=2' })
      expect([JSON.parse(paged.text).offset, idsOf(paged.text)]).toEqual([3, ['100000000000000000', '100000000000000001']])
      expect((await send(a, 'api', 'GET', '/pets/99999999999999999')).status).toBe(200)
    },
  },
  {
    name: 'answers 507 store_full for every creation and seed past the last int64 id, after handing it out',
    async run({ replicas }) {
      const [a, b] = await replicas({ pets: [] })
      expect((await load(a, `[${animal('9223372036854775806')}]`)).status).toBe(200)
      const last = await create(b)
      expect([last.status, idsOf(last.text)]).toEqual([201, ['9223372036854775807']])
      for (const refused of [await create(a), await create(b), await send(a, 'control', 'POST', '/seed', { body: '{"count":1}' })]) {
        expect([refused.status, JSON.parse(refused.text)]).toEqual([507, { code: 'store_full', message: 'No 64-bit ids are left to assign.', status: 507 }])
      }
      expect(idsOf((await list(b)).text)).toEqual(['9223372036854775806', '9223372036854775807'])
    },
  },
  {
    name: 'hands out id 1 after a snapshot of negative ids only, listing them first',
    async run({ replicas }) {
      const [a, b] = await replicas({ pets: [] })
      expect((await load(a, `[${animal('-3')},${animal('-5')}]`)).status).toBe(200)
      const made = await create(b)
      expect([made.status, idsOf(made.text)]).toEqual([201, ['1']])
      expect(idsOf((await create(a)).text)).toEqual(['2'])
      expect(idsOf((await list(a)).text)).toEqual(['-5', '-3', '1', '2'])
      expect((await send(b, 'api', 'GET', '/pets/-5')).status).toBe(200)
    },
  },
  {
    name: 'refuses a snapshot past the text budget before writing anything, and a creation past it, saying which limit',
    async run({ replicas, leftovers }) {
      const pets: Pet[] = [{ id: 1, name: 'Rex', categoryId: 1 }]
      const [a, b] = await replicas({ pets, limits: { maxTextChars: 2000 } })
      const long = (id: number, length: number) => animal(String(id), 'x'.repeat(length))
      const refused = await load(a, `[${long(1, 1200)},${long(2, 1200)}]`)
      expect(refused.status).toBe(507)
      expect(messageOf(refused)).toMatch(/^The fake has no room for 1 more animal: the animals' text would pass 2000 characters \([0-9]+ used, every store together\)\.$/)
      expect(await leftovers()).toBe(0)
      expect(JSON.parse((await list(b)).text)).toEqual(pets)
      expect((await load(b, `[${long(1, 1200)}]`)).status).toBe(200)
      const tooLong = await send(a, 'api', 'POST', '/pets', { body: JSON.stringify({ name: 'y'.repeat(1000), categoryId: 1 }) })
      expect([tooLong.status, messageOf(tooLong)]).toEqual([507, expect.stringMatching(/the animals' text would pass 2000 characters/)])
      expect((await send(b, 'api', 'POST', '/pets', { body: JSON.stringify({ name: 'y'.repeat(500), categoryId: 1 }) })).status).toBe(201)
      expect(idsOf((await list(a)).text)).toHaveLength(2)
    },
  },
  {
    name: 'keeps the text budget for every store together: a second store may not load what the first holds',
    async run({ replicas, leftovers }) {
      const [a, b] = await replicas({ pets: [], isolate: true, limits: { maxTextChars: 3000 } })
      const text = `[${animal('1', 'x'.repeat(1800))}]`
      expect((await load(a, text, 'team-a')).status).toBe(200)
      const refused = await load(b, text, 'team-b')
      expect([refused.status, JSON.parse(refused.text).code]).toEqual([507, 'store_full'])
      expect(await leftovers()).toBe(0)
      expect(JSON.parse((await list(a, 'limit=100', 'team-b')).text)).toEqual([])
      // Room comes back when the first store lets go of its animals.
      expect((await send(b, 'control', 'POST', '/reset', { key: 'team-a' })).status).toBe(200)
      expect((await load(b, text, 'team-b')).status).toBe(200)
    },
  },
  {
    name: 'counts a rule with times exactly while the rules change between requests: each request that starts again takes one use',
    async run({ replicas }) {
      const [a, b] = await replicas({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] })
      expect((await send(a, 'control', 'POST', '/forced', { body: '{"path":"/pets","delayMs":7,"times":3}' })).status).toBe(201)
      const delays: number[] = []
      for (let i = 0; i < 6; i++) {
        // Another replica changes the rules of the same store before each request: what b knows of them is out of date.
        const added = await send(a, 'control', 'POST', '/forced', { body: '{"path":"/elsewhere","status":500}' })
        expect((await send(a, 'control', 'DELETE', `/forced/${JSON.parse(added.text).id}`)).status).toBe(204)
        const answer = await list(b)
        expect(answer.status).toBe(200)
        delays.push(answer.delayMs)
      }
      expect(delays).toEqual([7, 7, 7, 0, 0, 0])
      expect(JSON.parse((await send(b, 'control', 'GET', '/forced')).text)).toEqual({ rules: [] })
    },
  },
  {
    name: 'gives a rule with times to exactly that many of many requests at once through two replicas while another store\'s rules churn',
    async run({ replicas }) {
      const [a, b] = await replicas({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }], isolate: true })
      expect((await send(a, 'control', 'POST', '/forced', { body: '{"path":"/pets","delayMs":5,"times":10}', key: 'team-a' })).status).toBe(201)
      let churning = true
      const churn = (async () => {
        while (churning) {
          const added = await send(b, 'control', 'POST', '/forced', { body: '{"status":500,"path":"/x"}', key: 'team-b' })
          await send(a, 'control', 'DELETE', `/forced/${JSON.parse(added.text).id}`, { key: 'team-b' })
        }
      })()
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => list(i % 2 === 0 ? a : b, 'limit=1', 'team-a')))
      churning = false
      await churn
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 30 }, () => 200))
      expect(answers.filter((answer) => answer.delayMs === 5)).toHaveLength(10)
    },
  },
]
