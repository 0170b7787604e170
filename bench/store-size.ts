import { BENCH_KEY, type LoadResult, loadRoute, median } from './load.js'
import { CLI, type ServerProcess, startProcess } from './processes.js'
import { benchRoutes } from './routes.js'
import { summarise } from './throughput.js'

/** The store sizes of the issue. */
export const STORE_SIZES = [1_000, 100_000, 1_000_000] as const

/** What one store size measured: throughput per route, memory, and how long seeding took. */
export type SizeFigures = {
  readonly size: number
  readonly seedMs: number
  /** Resident memory once seeded and settled. */
  readonly rssBytes: number
  /** Medians per route, in the order of `benchRoutes`. */
  readonly routes: readonly LoadResult[]
  /**
   * Per route, this size's throughput relative to the smallest size's: the median over rounds of
   * its share of the round's mean, over the smallest size's median share.
   */
  readonly relative: readonly number[]
}

/** Starts a fake from the empty fixture and seeds `size` generated animals through the control API. */
async function seeded(size: number): Promise<{ server: ServerProcess; seedMs: number }> {
  const server = await startProcess(CLI, ['serve', '--api-key', BENCH_KEY, '--fixture', 'empty'])
  const started = performance.now()
  const response = await fetch(`${server.origin}/__control/seed`, {
    method: 'POST',
    // With --api-key the control API takes the same keys.
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_KEY}` },
    body: JSON.stringify({ count: size, seed: 1 }),
  })
  if (response.status !== 201) throw new Error(`seeding ${size} answered ${response.status}: ${await response.text()}`)
  return { server, seedMs: performance.now() - started }
}

/**
 * The same routes against fakes holding 1k, 100k and 1M animals, runs interleaved across sizes; the
 * animal asked for by id sits in the middle of each store.
 */
export async function compareStoreSizes(runs: number, seconds: number): Promise<SizeFigures[]> {
  const fakes: { size: number; server: ServerProcess; seedMs: number }[] = []
  try {
    for (const size of STORE_SIZES) fakes.push({ size, ...(await seeded(size)) })
    // Let V8 settle after seeding before memory is read.
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const rss = fakes.map(({ server }) => server.rss())
    const samples = fakes.map(() => benchRoutes(0).map(() => [] as LoadResult[]))
    // Route by route, each round loads the three sizes back to back, so drift falls on all alike;
    // the order turns with each round, so no size always goes first.
    for (const r of benchRoutes(0).keys()) {
      for (let run = 0; run < runs; run++) {
        const results = new Map<number, LoadResult>()
        for (let k = 0; k < fakes.length; k++) {
          const f = (k + run) % fakes.length
          const fake = fakes[f]
          const route = fake === undefined ? undefined : benchRoutes(Math.floor(fake.size / 2))[r]
          if (fake !== undefined && route !== undefined) results.set(f, await loadRoute(fake.server.origin, route, seconds))
        }
        for (const [f, result] of results) samples[f]?.[r]?.push(result)
      }
    }
    // Each round measures the sizes back to back, so a round's ratios cancel the drift of the
    // shared machine between rounds. Each size is taken against the mean of its round, not against
    // one other size, so that one slow second of the reference does not move the others.
    const share = (f: number, r: number): number =>
      median(
        (samples[f]?.[r] ?? []).map((run, round) => {
          const inRound = samples.map((size) => size[r]?.[round]?.rps ?? Number.NaN)
          return run.rps / (inRound.reduce((sum, rps) => sum + rps, 0) / inRound.length)
        }),
      )
    const relativeTo = (f: number, r: number): number => share(f, r) / share(0, r)
    return fakes.map(({ size, seedMs }, f) => ({
      size,
      seedMs,
      rssBytes: rss[f] ?? 0,
      routes: (samples[f] ?? []).map((runsOfRoute) => summarise(runsOfRoute)),
      relative: benchRoutes(0).map((_, r) => relativeTo(f, r)),
    }))
  } finally {
    await Promise.all(fakes.map(({ server }) => server.stop()))
  }
}
