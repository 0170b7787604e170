/**
 * `npm run bench:shared`: one `serve --isolate` shared by teams, and /healthz while some of them read
 * what is heavy to read: journal pages of requests that carried 15 KB keys of 1,500 words, name
 * searches over a store of 2,000,000 animals (eight at once), and dashboards polling. Beside it, the
 * same probe against a bare node:http server, in alternating rounds, pinned as `PINNING` says
 * (processes.ts). The fake in memory, then over Redis (`--store`, a redis-server with
 * `appendfsync always` on the server core, as docs/deploy.md starts it) where one is installed.
 * The target: /healthz p99 within 50 ms, no request holding the loop longer (docs/guarantees.md).
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BARE, CLI, pinLoadHere, startProcess, type ServerProcess } from './processes.js'
import { startRedis, stopChild } from './redis-store.js'
import { percentile, sampleDuring } from './responsiveness.js'

/** The longest /healthz may wait at p99 while the others read: the event loop's budget. */
export const LOOP_BUDGET_MS = 50

export type SharedFigure = {
  /** Where the fake keeps its stores: `memory`, or `Redis`. */
  readonly store: string
  readonly work: string
  readonly fake: { readonly samples: number; readonly p50: number; readonly p99: number; readonly max: number }
  readonly bare: { readonly samples: number; readonly p50: number; readonly p99: number; readonly max: number }
}

const summary = (waits: readonly number[]) => {
  const sorted = [...waits].sort((a, b) => a - b)
  return { samples: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0 }
}

const call = (server: ServerProcess, path: string, key: string, init: RequestInit = {}) =>
  fetch(`${server.origin}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } })

/** A key of 1,500 distinct words, about 15 KB, unlike any other request's. */
const wordyKey = (request: number): string => Array.from({ length: 1500 }, (_, word) => (request * 7919 + word * 104_729).toString(36)).join(' ').slice(0, 15_000)

async function prepare(fake: ServerProcess): Promise<void> {
  // A seed adds at most 1,000,000 animals: two of them.
  for (const seed of [1, 2]) {
    const seeded = await call(fake, '/__control/seed', 'search-team', { method: 'POST', body: JSON.stringify({ count: 1_000_000, seed }) })
    if (seeded.status !== 201) throw new Error(`seeding answered ${seeded.status}: ${await seeded.text()}`)
  }
  for (let batch = 0; batch < 10; batch++) {
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const response = await call(fake, '/v1/pets?limit=100', 'journal-team', { headers: { 'x-api-key': wordyKey(batch * 100 + i) } })
        await response.arrayBuffer()
      }),
    )
  }
}

/** The reads, each a function of the server it reads (the bare server answers them with its constant body). */
const WORK: readonly { readonly work: string; readonly run: (server: ServerProcess) => Promise<unknown> }[] = [
  {
    work: 'reading the journal of 1,000 requests with 15 KB keys, a page of up to 1,000 at a time, 10 times over',
    run: async (server) => {
      for (let read = 0; read < 10; read++) {
        let since = 0
        for (let more = true; more; ) {
          const page = (await (await call(server, `/__control/journal?since=${since}&limit=1000`, 'journal-team')).json()) as { next?: number; more?: boolean }
          more = page.more === true
          since = page.next ?? since
        }
      }
    },
  },
  {
    work: 'searching 2,000,000 animals by name, eight searches at once, three times',
    run: async (server) => {
      for (let round = 0; round < 3; round++) {
        await Promise.all(Array.from({ length: 8 }, async () => (await call(server, '/__control/animals?name=a&limit=20', 'search-team')).arrayBuffer()))
      }
    },
  },
  {
    work: 'four dashboards polling the store, the journal, the stores, rules and latency every 100 ms for 3 s',
    run: async (server) => {
      const until = performance.now() + 3_000
      await Promise.all(
        Array.from({ length: 4 }, async (_, dashboard) => {
          const key = dashboard % 2 === 0 ? 'journal-team' : 'search-team'
          while (performance.now() < until) {
            await Promise.all(['/__control/animals?limit=20', '/__control/journal?limit=100', '/__control/forced', '/__control/latency'].map(async (path) => (await call(server, path, key)).arrayBuffer()))
            // The list of stores is the operator's: here, a request without a key to a fake that takes any.
            await (await fetch(`${server.origin}/__control/stores`)).arrayBuffer()
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        }),
      )
    },
  },
]

/** Measures every read against the fake and the bare server, in `rounds` alternating rounds each. */
export async function measureSharedFake(rounds = 3): Promise<SharedFigure[]> {
  const figures: SharedFigure[] = []
  const serve = (extra: readonly string[], env: Record<string, string> = {}) => startProcess(CLI, ['serve', '--isolate', '--fixture', 'empty', '--quiet', '--max-animals', '2100000', ...extra], env)
  figures.push(...(await measureOne('memory', () => serve([]), rounds)))
  if (!existsSync('/usr/bin/redis-server')) return figures
  const dir = mkdtempSync(join(tmpdir(), 'animals-bench-shared-'))
  const redis = await startRedis(dir, 'always')
  try {
    figures.push(...(await measureOne('Redis', () => serve(['--store', redis.url], { ANIMALS_MOCK_STORE_SECRET: randomBytes(32).toString('hex') }), rounds)))
  } finally {
    await stopChild(redis.child)
    rmSync(dir, { recursive: true, force: true })
  }
  return figures
}

async function measureOne(store: string, start: () => Promise<ServerProcess>, rounds: number): Promise<SharedFigure[]> {
  const fake = await start()
  const bare = await startProcess(BARE, [], {}, false)
  try {
    await prepare(fake)
    const figures: SharedFigure[] = []
    for (const { work, run } of WORK) {
      const waits = { fake: [] as number[], bare: [] as number[] }
      for (let round = 0; round < rounds; round++) {
        waits.bare.push(...(await sampleDuring(bare.origin, () => run(bare))))
        waits.fake.push(...(await sampleDuring(fake.origin, () => run(fake))))
      }
      figures.push({ store, work, fake: summary(waits.fake), bare: summary(waits.bare) })
    }
    return figures
  } finally {
    await fake.stop()
    await bare.stop()
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  pinLoadHere()
  console.log('| store | while | fake /healthz p50 / p99 / longest ms | bare p50 / p99 / longest ms | target |\n|---|---|---:|---:|---:|')
  let held = true
  for (const { store, work, fake, bare } of await measureSharedFake()) {
    console.log(`| ${store} | ${work} | ${fake.p50.toFixed(1)} / **${fake.p99.toFixed(1)}** / ${fake.max.toFixed(1)} (${fake.samples}) | ${bare.p50.toFixed(1)} / ${bare.p99.toFixed(1)} / ${bare.max.toFixed(1)} (${bare.samples}) | p99 ≤ ${LOOP_BUDGET_MS} |`)
    held &&= fake.p99 <= LOOP_BUDGET_MS
  }
  process.exitCode = held ? 0 : 1
}
