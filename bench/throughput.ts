import { BENCH_KEY, type LoadResult, loadRoute, median, type Route } from './load.js'
import { BARE, CLI, startProcess } from './processes.js'
import { benchRoutes } from './routes.js'

/** One route's medians for both servers, and the median of the per-round ratios. */
export type RouteComparison = { readonly route: Route; readonly bare: LoadResult; readonly fake: LoadResult; readonly ratio: number }

/**
 * The fake (`serve` as users start it, request logs on) against a bare node:http server answering
 * the very bytes the fake answers, route by route. Each round loads the two back to back, in turns
 * of order, and the verdict takes the median of the rounds' ratios: on a shared machine the speed
 * of both drifts, and a ratio of two loads a few seconds apart cancels most of it.
 */
export async function compareWithBare(rounds: number, seconds: number): Promise<RouteComparison[]> {
  const fake = await startProcess(CLI, ['serve', '--api-key', BENCH_KEY, '--fixture', 'large'])
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
  const bare = await startProcess(BARE, [], { BARE_ROUTES: JSON.stringify(bodies) }, false)
  try {
    const comparisons: RouteComparison[] = []
    for (const route of routes) {
      const bareRuns: LoadResult[] = []
      const fakeRuns: LoadResult[] = []
      for (let round = 0; round < rounds; round++) {
        if (round % 2 === 0) {
          bareRuns.push(await loadRoute(bare.origin, route, seconds))
          fakeRuns.push(await loadRoute(fake.origin, route, seconds))
        } else {
          fakeRuns.push(await loadRoute(fake.origin, route, seconds))
          bareRuns.push(await loadRoute(bare.origin, route, seconds))
        }
      }
      const ratio = median(fakeRuns.map((run, i) => run.rps / (bareRuns[i]?.rps ?? Number.NaN)))
      comparisons.push({ route, bare: summarise(bareRuns), fake: summarise(fakeRuns), ratio })
    }
    return comparisons
  } finally {
    await Promise.all([fake.stop(), bare.stop()])
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
