import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

const CONNECTIONS = 32
const WRK = '/usr/bin/wrk'

/**
 * wrk where installed (Debian's `wrk`): written in C, it leaves the server the bottleneck on a
 * two-core machine, where autocannon, in JavaScript, would itself be. autocannon otherwise.
 */
export const LOAD_GENERATOR = existsSync(WRK) ? 'wrk' : 'autocannon'

/** Loads `origin` with one route for `seconds`, over loopback, and reports throughput and latency. */
export function loadRoute(origin: string, route: Route, seconds: number, connections = CONNECTIONS): Promise<LoadResult> {
  return LOAD_GENERATOR === 'wrk' ? withWrk(origin, route, seconds, connections) : withAutocannon(origin, route, seconds, connections)
}

async function withAutocannon(origin: string, route: Route, seconds: number, connections: number): Promise<LoadResult> {
  const result = await autocannon({
    url: `${origin}${route.path}`,
    method: route.method,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
    ...(route.body === undefined ? {} : { body: route.body }),
  })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx }
}

const scripts = new Map<string, string>()

/** wrk takes a method and body from a Lua script. */
function wrkScript(route: Route): string {
  const key = `${route.method} ${route.body ?? ''}`
  let file = scripts.get(key)
  if (file === undefined) {
    file = join(mkdtempSync(join(tmpdir(), 'animals-bench-')), 'route.lua')
    const body = route.body === undefined ? '' : `wrk.body = ${JSON.stringify(route.body)}\n`
    writeFileSync(file, `wrk.method = "${route.method}"\n${body}wrk.headers["Content-Type"] = "application/json"\n`)
    scripts.set(key, file)
  }
  return file
}

function withWrk(origin: string, route: Route, seconds: number, connections: number): Promise<LoadResult> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-H', `Authorization: Bearer ${BENCH_KEY}`, '-s', wrkScript(route), `${origin}${route.path}`]
  return new Promise((resolve, reject) => {
    execFile(WRK, args, (error, stdout) => {
      if (error !== null) return reject(error)
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0)
      const percentile = (p: string): number => toMs(new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(stdout))
      const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0) + Number(/Socket errors:.*?timeout (\d+)/.exec(stdout)?.[1] ?? 0)
      resolve({ rps, p50: percentile('50'), p99: percentile('99'), errors })
    })
  })
}

function toMs(match: RegExpExecArray | null): number {
  if (match === null) return Number.NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
