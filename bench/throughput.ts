import { BENCH_KEY, type LoadResult, loadRoute, median, type Route } from './load.js'
import { BARE, CLI, type ServerProcess, startProcess } from './processes.js'
import { benchRoutes } from './routes.js'

const WARM_UP_SECONDS = 2

/** One route's medians for the fake and both bare servers, and the medians of the per-round ratios. */
export type RouteComparison = {
  readonly route: Route
  /** The bare server writing the answers of a turn of the event loop together, as the fake does. */
  readonly bare: LoadResult
  /** The bare server writing each answer as it is handled, as a plain node:http server does. */
  readonly inlineBare: LoadResult
  readonly fake: LoadResult
  /** Fake / batched bare: the verdict's ratio. */
  readonly ratio: number
  /** Fake / inline bare, shown beside it. */
  readonly inlineRatio: number
}

/**
 * The fake (`serve` as users start it, request logs on) against bare node:http servers answering
 * the very bytes the fake answers, route by route. The verdict's baseline is the bare server that
 * batches its writes as the fake does: the faster of the two, so the practical upper bound. Each
 * round loads the three back to back, in turns of order, and each ratio is the median of the
 * rounds' ratios: on a shared machine the speed of all drifts, and a ratio of loads a few seconds
 * apart cancels most of it.
 */
export async function compareWithBare(rounds: number, seconds: number): Promise<RouteComparison[]> {
  const fake = await startProcess(CLI, ['serve', '--api-key', BENCH_KEY, '--fixture', 'large'])
  const servers: ServerProcess[] = [fake]
  try {
    const routes = benchRoutes(5000)
    const bodies: Record<string, { status: number; headers: Record<string, string>; body: string }> = {}
    for (const route of routes) {
      const response = await fetch(`${fake.origin}${route.path}`, {
        method: route.method,
        headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
        ...(route.body === undefined ? {} : { body: route.body }),
      })
      // Node adds Date, Connection and Keep-Alive to both; the length is the bare server's to set.
      const headers = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name)))
      bodies[`${route.method} ${route.path}`] = { status: response.status, headers, body: await response.text() }
    }
    const BARE_ROUTES = JSON.stringify(bodies)
    const bare = await startProcess(BARE, [], { BARE_ROUTES, BARE_WRITES: 'batched' }, false)
    servers.push(bare)
    const inlineBare = await startProcess(BARE, [], { BARE_ROUTES, BARE_WRITES: 'inline' }, false)
    servers.push(inlineBare)
    const order = [bare, inlineBare, fake]
    // Every server takes every route for a while before anything counts: measured without it, the
    // first route's rounds ran while the fake's code was still being optimised (far more of it
    // than the bare servers'), and its ratio came out 0.1 lower than in a run that began elsewhere.
    for (const route of routes) for (const server of order) await loadRoute(server.origin, route, WARM_UP_SECONDS)
    const comparisons: RouteComparison[] = []
    for (const route of routes) {
      const runs = order.map(() => [] as LoadResult[])
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < order.length; k++) {
          const s = (k + round) % order.length
          runs[s]?.push(await loadRoute(order[s]?.origin ?? '', route, seconds))
        }
      }
      const [bareRuns = [], inlineRuns = [], fakeRuns = []] = runs
      const ratioTo = (baseline: readonly LoadResult[]): number =>
        median(fakeRuns.map((run, i) => run.rps / (baseline[i]?.rps ?? Number.NaN)))
      comparisons.push({
        route,
        bare: summarise(bareRuns),
        inlineBare: summarise(inlineRuns),
        fake: summarise(fakeRuns),
        ratio: ratioTo(bareRuns),
        inlineRatio: ratioTo(inlineRuns),
      })
    }
    return comparisons
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
  }
}

/** Medians of each figure over the runs. */
export function summarise(runs: readonly LoadResult[]): LoadResult {
  return {
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  }
}
