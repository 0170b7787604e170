/**
 * What recording a pact costs an app's suite: the example app's kind of traffic (lists with and
 * without a filter, creations, gets, a 404, a refused key) through `setupServer`, with the fake's
 * handlers plain and with `recordPact`, rounds alternating so drift hits both. Run with
 * `npm run bench:recording`; `measureRecordingOverhead()` returns the figures.
 */
import { performance } from 'node:perf_hooks'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { setupServer } from 'msw/node'
import { createFake } from '../src/create-fake.js'
import { createHandlers } from '../src/msw/handlers.js'

const BASE = 'http://bench.test/v1'
const KEY = { authorization: 'Bearer bench-key' }
const JSON_KEY = { ...KEY, 'content-type': 'application/json' }
const REQUESTS: readonly [string, RequestInit][] = [
  [`${BASE}/pets`, { headers: KEY }],
  [`${BASE}/pets?status=available&limit=10`, { headers: KEY }],
  [`${BASE}/pets`, { method: 'POST', headers: JSON_KEY, body: '{"name":"Biscuit","categoryId":3,"status":"available"}' }],
  [`${BASE}/pets/7`, { headers: KEY }],
  [`${BASE}/pets/999999`, { headers: KEY }],
  [`${BASE}/pets`, { headers: { authorization: 'Bearer ' } }],
]

/**
 * Median time of a round plain and recording, and the median of each round's ratio (target: at
 * most 1.10): the machine drifts over seconds, and a ratio of two loads moments apart cancels it.
 */
export type RecordingFigures = { readonly requests: number; readonly plainMs: number; readonly recordingMs: number; readonly ratio: number }

export async function measureRecordingOverhead(requests = 6_000, rounds = 15): Promise<RecordingFigures> {
  const fake = createFake()
  const plain = createHandlers({ baseUrl: BASE, fake })
  const recording = createHandlers({ baseUrl: BASE, fake: createFake(), recordPact: { consumer: 'bench-app', dir: 'unused' } })
  const server = setupServer()
  server.listen({ onUnhandledRequest: 'error' })
  const times = { plain: [] as number[], recording: [] as number[] }
  try {
    for (const handlers of [plain, recording]) {
      server.resetHandlers(...handlers)
      await run(1_000)
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['plain', 'recording'] as const) : (['recording', 'plain'] as const)
      for (const name of order) {
        server.resetHandlers(...(name === 'plain' ? plain : recording))
        times[name].push(await run(requests))
      }
    }
  } finally {
    server.close()
  }
  const ratios = times.plain.map((plainMs, round) => (times.recording[round] ?? plainMs) / plainMs)
  return { requests, plainMs: median(times.plain), recordingMs: median(times.recording), ratio: median(ratios) }
}

async function run(count: number): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    const [url, init] = REQUESTS[i % REQUESTS.length] as [string, RequestInit]
    await (await fetch(url, init)).arrayBuffer()
    // Let the event loop turn now and then: see bench/msw.ts.
    if (i % 500 === 499) await nextTurn()
  }
  return performance.now() - started
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await measureRecordingOverhead()
  const perRequest = (ms: number): string => `${((ms * 1000) / figures.requests).toFixed(0)} µs/req`
  console.log(`msw setupServer, ${figures.requests} requests a round: plain ${perRequest(figures.plainMs)}, recording a pact ${perRequest(figures.recordingMs)}`)
  console.log(`  ratio recording/plain ${figures.ratio.toFixed(3)} (target <= 1.10)`)
}
