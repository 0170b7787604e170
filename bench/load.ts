import autocannon from 'autocannon'

/** One route as both servers are asked for it. */
export type Route = {
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly body?: string
  /** The least fake / bare throughput the verdict accepts. */
  readonly target: number
}

/** What one load run measured. */
export type LoadResult = { readonly rps: number; readonly p50: number; readonly p99: number; readonly errors: number }

/** The key every benchmarked fake accepts. */
export const BENCH_KEY = 'bench-key'

/** Loads `origin` with one route for `seconds`, over loopback, and reports throughput and latency. */
export async function loadRoute(origin: string, route: Route, seconds: number, connections = 32): Promise<LoadResult> {
  const result = await autocannon({
    url: `${origin}${route.path}`,
    method: route.method,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
    ...(route.body === undefined ? {} : { body: route.body }),
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
