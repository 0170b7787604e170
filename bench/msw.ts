/**
 * What the fake costs a suite over msw: the same requests through `setupServer` with the fake's
 * handlers and with a trivial handler answering a constant body of the same size and headers, in
 * one process. A third variant answers the constant body behind the fake's own matcher, which
 * isolates what the adapter and the core add. Run with `npm run bench:msw`;
 * `measureMswOverhead()` returns the figures.
 */
import { performance } from 'node:perf_hooks'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createFake } from '../src/create-fake.js'
import { resolveApiBase, toMatcher } from '../src/msw/base-url.js'
import { createHandlers } from '../src/msw/handlers.js'

/** Options of `measureMswOverhead`. */
export type MswBenchOptions = {
  /** Requests per route, per variant, per round. */
  readonly requests?: number
  /** Rounds after the warm-up; each figure is the median over them. */
  readonly rounds?: number
  /** Requests per route and variant before measuring. */
  readonly warmUp?: number
}

/** One route's figures: median total time of a round through each variant, and their ratios. */
export type MswRouteFigures = {
  readonly route: string
  readonly requests: number
  /** The fake's handlers. */
  readonly fakeMs: number
  /** `http.get('<base>/pets/:petId', () => constant)`: a trivial handler as users write one. */
  readonly constantMs: number
  /** The constant answer behind the same RegExp catch-all the fake's handlers use. */
  readonly sameMatcherMs: number
  /** fakeMs / constantMs, the figure with a target: at most 1.5. */
  readonly ratio: number
  /** fakeMs / sameMatcherMs: what the adapter and the core alone add. */
  readonly ratioSameMatcher: number
}

const BASE = 'http://bench.test/v1'
const INIT = { headers: { authorization: 'Bearer bench-key' } }
const ROUTES = [
  { route: 'GET /pets?limit=20', url: `${BASE}/pets?limit=20`, pattern: `${BASE}/pets` },
  { route: 'GET /pets/{id}', url: `${BASE}/pets/7`, pattern: `${BASE}/pets/:petId` },
] as const

/**
 * Runs the comparison. Rounds alternate the two variants so that drift in the machine hits both.
 * @example const [list, get] = await measureMswOverhead({ requests: 20_000, rounds: 5 })
 */
export async function measureMswOverhead(options: MswBenchOptions = {}): Promise<MswRouteFigures[]> {
  const { requests = 20_000, rounds = 5, warmUp = 2_000 } = options
  const fakeHandlers = createHandlers({ baseUrl: BASE, fake: createFake() })
  const server = setupServer(...fakeHandlers)
  server.listen({ onUnhandledRequest: 'error' })
  try {
    const figures: MswRouteFigures[] = []
    for (const { route, url, pattern } of ROUTES) {
      // The constant handler answers exactly what the fake answers: same status, headers and bytes.
      server.resetHandlers(...fakeHandlers)
      const sample = await fetch(url, INIT)
      const body = await sample.text()
      const headers = Object.fromEntries(sample.headers)
      const answer = () => new HttpResponse(body, { status: sample.status, headers })
      const variants = {
        fake: fakeHandlers,
        constant: [http.get(pattern, answer)],
        sameMatcher: [http.all(toMatcher(resolveApiBase(BASE)), answer)],
      }
      const names = ['fake', 'constant', 'sameMatcher'] as const
      const times = { fake: [] as number[], constant: [] as number[], sameMatcher: [] as number[] }
      for (const name of names) {
        server.resetHandlers(...variants[name])
        await run(url, warmUp, body)
      }
      for (let round = 0; round < rounds; round++) {
        for (const name of names) {
          server.resetHandlers(...variants[name])
          times[name].push(await run(url, requests, body))
        }
      }
      const [fakeMs, constantMs, sameMatcherMs] = names.map((name) => median(times[name])) as [number, number, number]
      figures.push({
        route,
        requests,
        fakeMs,
        constantMs,
        sameMatcherMs,
        ratio: fakeMs / constantMs,
        ratioSameMatcher: fakeMs / sameMatcherMs,
      })
    }
    return figures
  } finally {
    server.close()
  }
}

// Intercepted fetches settle in microtasks only. Until the event loop turns, V8 keeps every
// WeakRef target undici creates per request alive, so a loop that never yields grows by ~9 kB a
// request (4 GB over a full run) and measures the garbage collector.
const TURN_EVERY = 500

async function run(url: string, count: number, expected: string): Promise<number> {
  const started = performance.now()
  for (let i = 1; i <= count; i++) {
    const response = await fetch(url, INIT)
    const text = await response.text()
    // A wrong answer would make the figures meaningless; checking the length costs nothing.
    if (text.length !== expected.length) throw new Error(`unexpected answer from ${url}: ${response.status} ${text}`)
    if (i % TURN_EVERY === 0) await nextTurn()
  }
  return performance.now() - started
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await measureMswOverhead()
  console.log("msw setupServer, Node's fetch: the fake's handlers against a constant handler (medians of rounds)")
  for (const figure of figures) {
    const perRequest = (ms: number): string => `${((ms * 1000) / figure.requests).toFixed(0)} µs/req`
    console.log(
      `${figure.route}, ${figure.requests} requests: fake ${perRequest(figure.fakeMs)}, ` +
        `constant http.get ${perRequest(figure.constantMs)}, constant behind the fake's matcher ${perRequest(figure.sameMatcherMs)}`,
    )
    console.log(
      `  ratio fake/constant ${figure.ratio.toFixed(2)} (target <= 1.5); fake/same matcher ${figure.ratioSameMatcher.toFixed(2)}`,
    )
  }
}
