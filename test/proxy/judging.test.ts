import { expect, it } from 'vitest'
import { credentialOf, type JudgedRequest, type ObservedAnswer } from '../../src/spec-rules/answer-rules.js'
import { createJudge } from '../../src/proxy/judging.js'
import { createProxyApi, type ForwardAnswer } from '../../src/proxy/proxy-api.js'

// The worker as the CLI starts it: the built one (`npm test` builds first).
const WORKER = new URL('../../dist/proxy/judge-worker.js', import.meta.url)

const LIST: JudgedRequest = { operation: 'listPets', method: 'GET', path: '/pets', query: 'limit=5', credential: credentialOf('Bearer k') }
const listOf = (count: number): ObservedAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Animal ${i + 1}`, categoryId: 1 }))),
})
const never = new AbortController().signal

it('judges a small answer in this thread and a large one in a worker, alike', async () => {
  const judge = createJudge({ worker: WORKER, inlineChars: 1000, concurrent: 1 })
  const small = await judge(LIST, listOf(6), never)
  const large = await judge(LIST, listOf(50_000), never)
  expect(small).toEqual([{ aspect: 'count', reason: expect.stringMatching(/^6 animals listed, more than limit=5; spec 4\.1/) }])
  expect(large).toEqual([{ aspect: 'count', reason: expect.stringMatching(/^50000 animals listed, more than limit=5; spec 4\.1/) }])
})

/** How many turns this thread's event loop took while `judging` was under way. */
async function turnsDuring(judging: Promise<unknown>): Promise<number> {
  let turns = 0
  let done = false
  const spin = (): void => {
    if (done) return
    turns += 1
    setImmediate(spin)
  }
  setImmediate(spin)
  await judging
  done = true
  return turns
}

it('leaves this thread\'s event loop turning while a large answer is judged, where an inline judgement takes no turn', async () => {
  const inWorker = createJudge({ worker: WORKER, inlineChars: 1000, concurrent: 1 })
  const inline = createJudge({ worker: WORKER, inlineChars: Number.POSITIVE_INFINITY, concurrent: 1 })
  const large = listOf(50_000)
  // The worker starts, parses about 3 MB and answers while this loop keeps turning: many turns.
  expect(await turnsDuring(inWorker(LIST, large, never))).toBeGreaterThan(10)
  // The same judgement in this thread holds the loop from start to end: not one turn.
  expect(await turnsDuring(inline(LIST, large, never))).toBe(0)
})

it('gives up on a large judgement when the exchange\'s deadline passes mid-way, or while it waits for its turn', async () => {
  const judge = createJudge({ worker: WORKER, inlineChars: 1000, concurrent: 1 })
  // 400,000 animals take a worker far longer than 50 ms to parse.
  const huge = listOf(400_000)
  expect(await judge(LIST, huge, AbortSignal.timeout(50))).toBeUndefined()
  const first = judge(LIST, huge, never)
  const waiting = judge(LIST, huge, AbortSignal.timeout(50))
  const order: string[] = []
  await Promise.all([first.then(() => order.push('first')), waiting.then(() => order.push('waiting'))])
  expect(order).toEqual(['waiting', 'first'])
  expect(await waiting).toBeUndefined()
  expect(await first).toHaveLength(1)
  // The turns were given back: the next judgement runs.
  expect(await judge(LIST, listOf(6_000), never)).toHaveLength(1)
})

it('answers 504 when judging outlasts --timeout, though the answer came in time', async () => {
  const seen: (number | null)[] = []
  const text = '[]'
  const answer: ForwardAnswer = { kind: 'answer', status: 200, headers: { 'content-type': 'application/json' }, setCookie: [], body: new TextEncoder().encode(text), text, release() {} }
  const api = createProxyApi({
    target: 'http://staging.test/v1',
    timeoutMs: 100,
    send: async () => answer,
    // A judgement that takes as long as the deadline allows.
    judge: (_request, _answer, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined))),
    onExchange: (exchange) => seen.push(exchange.status),
  })
  const started = performance.now()
  const response = await api.handle({ method: 'GET', path: '/pets', basePath: '/v1', search: '', headers: { authorization: 'Bearer k' }, body: undefined })
  expect(performance.now() - started).toBeGreaterThanOrEqual(90)
  expect(response).toMatchObject({ status: 504 })
  expect(JSON.parse((response as { body: string }).body)).toEqual({
    code: 'gateway_timeout',
    message: 'http://staging.test/v1 did not answer within 100 ms (--timeout, judging included); the request was not retried.',
    status: 504,
  })
  expect(seen).toEqual([null])
})
