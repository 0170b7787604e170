import { BENCH_KEY, type LoadResult, loadRoute, median, type Route } from './load.js'
import { BARE, CLI, startProcess } from './processes.js'
import { benchRoutes } from './routes.js'

/** One route's medians for both servers and their ratio. */
export type RouteComparison = { readonly route: Route; readonly bare: LoadResult; readonly fake: LoadResult; readonly ratio: number }

/**
 * The fake against a bare node:http server answering the same bytes, route by route, runs
 * interleaved so that noise on the shared machine falls on both alike; medians of the runs.
 */
export async function compareWithBare(runs: number, seconds: number): Promise<RouteComparison[]> {
  const fake = await startProcess(CLI, ['serve', '--port', '0', '--api-key', BENCH_KEY, '--fixture', 'large'])
  const routes = benchRoutes(5000)
  const bodies: Record<string, { status: number; body: string }> = {}
  for (const route of routes) {
    const response = await fetch(`${fake.origin}${route.path}`, {
      method: route.method,
      headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
      ...(route.body === undefined ? {} : { body: route.body }),
    })
    bodies[`${route.method} ${route.path}`] = { status: response.status, body: await response.text() }
  }
  const bare = await startProcess(BARE, [], { BARE_ROUTES: JSON.stringify(bodies) })
  const samples = routes.map(() => ({ bare: [] as LoadResult[], fake: [] as LoadResult[] }))
  try {
    for (let run = 0; run < runs; run++) {
      for (const [i, route] of routes.entries()) {
        samples[i]?.bare.push(await loadRoute(bare.origin, route, seconds))
        samples[i]?.fake.push(await loadRoute(fake.origin, route, seconds))
      }
    }
  } finally {
    await Promise.all([fake.stop(), bare.stop()])
  }
  return routes.map((route, i) => {
    const { bare: bareRuns = [], fake: fakeRuns = [] } = samples[i] ?? {}
    const bareMedian = summarise(bareRuns)
    const fakeMedian = summarise(fakeRuns)
    return { route, bare: bareMedian, fake: fakeMedian, ratio: fakeMedian.rps / bareMedian.rps }
  })
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
