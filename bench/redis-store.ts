/**
 * `npm run bench:redis`: the fake in memory against `serve --store` on a Redis on loopback, one
 * replica and three behind nginx with round robin, route by route, in interleaved rounds. Every
 * server (the fakes, Redis, nginx) runs on the server core and the load generator on the other
 * (processes.ts): three replicas, Redis and nginx share one core here, as they would share a small
 * VM. Redis runs with its append-only file and `appendfsync always`, as docs/deploy.md starts it,
 * and again with `everysec`, to show what always costs, and under `--isolate` (the key's own store). Requests to Redis are pipelined by the
 * client: the commands of requests in flight at once go out in one write.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BENCH_KEY, type LoadResult, loadRoute, median } from './load.js'
import { CLI, freePort, PINNING, pinLoadHere, SERVER_CORE, type ServerProcess, startProcess } from './processes.js'
import { benchRoutes } from './routes.js'
import { summarise } from './throughput.js'

const TASKSET = ['/usr/bin/taskset', '-c', String(SERVER_CORE)]

/** One route's medians for each setup, and each setup's ratio to the in-memory fake. */
export type RedisFigure = { readonly route: string; readonly results: Record<string, LoadResult & { readonly ratio: number }> }

/** A process started pinned to the server core, stopped with SIGTERM. */
function pinned(command: readonly string[]): ChildProcess {
  return spawn(TASKSET[0] as string, [...TASKSET.slice(1), ...command], { stdio: 'ignore' })
}

/** Stops a child with SIGTERM and waits for it to exit. */
export const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })

async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; !(await ready().catch(() => false)); attempt++) {
    if (attempt > 400) throw new Error(`${what} did not start`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** A redis-server pinned to the server core, its append-only file in `dir` with `appendfsync`. */
export async function startRedis(dir: string, appendfsync: 'always' | 'everysec'): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort()
  const child = pinned(['/usr/bin/redis-server', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', appendfsync])
  const probe = async (): Promise<boolean> => {
    const { createConnection } = await import('node:net')
    return new Promise((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => socket.end('PING\r\n'))
      socket.once('data', (reply) => resolve(reply.toString().startsWith('+PONG')))
      socket.once('error', () => resolve(false))
    })
  }
  try {
    await until('redis-server', probe)
  } catch (error) {
    await stopChild(child)
    throw error
  }
  return { url: `redis://127.0.0.1:${port}`, child }
}

async function startNginx(dir: string, upstreams: readonly string[]): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort()
  const conf = `worker_processes 1;
events { worker_connections 8192; }
http {
  access_log off;
  upstream animals_mock {
${upstreams.map((origin) => `    server ${new URL(origin).host};`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass http://animals_mock; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host; }
  }
}
`
  writeFileSync(join(dir, 'nginx.conf'), conf)
  const child = pinned(['/usr/sbin/nginx', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`])
  const origin = `http://127.0.0.1:${port}`
  try {
    await until('nginx', async () => (await fetch(`${origin}/healthz`)).ok)
  } catch (error) {
    await stopChild(child)
    throw error
  }
  return { origin, child }
}

/** The least share of the in-memory fake's req/s each one-replica setup should reach. */
const TARGETS = [
  ['Redis, 1 replica', 0.3],
  ['Redis --journal-size 0, 1 replica', 0.5],
] as const

/** Connections of each load run: the issue's red team measured with 50. */
export const REDIS_BENCH_CONNECTIONS = 50

export async function measureRedisStore(rounds = 3, seconds = 5): Promise<RedisFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'animals-bench-redis-'))
  const children: ChildProcess[] = []
  const servers: ServerProcess[] = []
  try {
    const always = await startRedis(join(dir, '.'), 'always')
    children.push(always.child)
    const everysecDir = mkdtempSync(join(dir, 'everysec-'))
    const everysec = await startRedis(everysecDir, 'everysec')
    children.push(everysec.child)
    const serve = async (extra: readonly string[], env: Record<string, string> = {}): Promise<ServerProcess> => {
      const server = await startProcess(CLI, ['serve', '--api-key', BENCH_KEY, '--fixture', 'large', '--quiet', ...extra], env)
      servers.push(server)
      return server
    }
    const memory = await serve([])
    const one = await serve(['--store', always.url])
    const oneEverysec = await serve(['--store', everysec.url])
    const noJournal = await serve(['--store', always.url, '--journal-size', '0'])
    // The key's own store, made from the fixture on its first request (the warm-up's).
    const isolated = await serve(['--isolate', '--store', always.url], { ANIMALS_MOCK_STORE_SECRET: randomBytes(32).toString('hex') })
    const three = [one, await serve(['--store', always.url]), await serve(['--store', always.url])]
    const balancer = await startNginx(mkdtempSync(join(dir, 'nginx-')), three.map((server) => server.origin))
    children.push(balancer.child)
    const setups: [string, string][] = [
      ['in memory', memory.origin],
      ['Redis, 1 replica', one.origin],
      ['Redis everysec, 1 replica', oneEverysec.origin],
      ['Redis --journal-size 0, 1 replica', noJournal.origin],
      ['Redis --isolate, 1 replica', isolated.origin],
      ['Redis, 3 replicas behind nginx', balancer.origin],
    ]
    const figures: RedisFigure[] = []
    for (const route of benchRoutes(5000)) {
      for (const [, origin] of setups) await loadRoute(origin, route, 2, REDIS_BENCH_CONNECTIONS)
      const runs = setups.map(() => [] as LoadResult[])
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < setups.length; k++) {
          const s = (k + round) % setups.length
          runs[s]?.push(await loadRoute(setups[s]?.[1] ?? '', route, seconds, REDIS_BENCH_CONNECTIONS))
        }
      }
      const base = runs[0] ?? []
      const results: RedisFigure['results'] = {}
      setups.forEach(([name], s) => {
        const mine = runs[s] ?? []
        results[name] = { ...summarise(mine), ratio: median(mine.map((run, i) => run.rps / (base[i]?.rps ?? Number.NaN))) }
      })
      figures.push({ route: route.name, results })
    }
    return figures
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    await Promise.all(children.map(stopChild))
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  pinLoadHere()
  console.log(`${PINNING}; ${REDIS_BENCH_CONNECTIONS} connections; medians of ${3} interleaved rounds of 5 s\n`)
  console.log('| route | setup | req/s | p50 ms | p99 ms | / in memory | errors |\n|---|---|---:|---:|---:|---:|---:|')
  const figures = await measureRedisStore()
  for (const { route, results } of figures) {
    for (const [setup, result] of Object.entries(results)) {
      console.log(`| ${route} | ${setup} | ${result.rps.toFixed(0)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${result.ratio.toFixed(2)} | ${result.errors} |`)
    }
  }
  console.log('\nTargets (issue 55): one replica at least 0.3 of the fake in memory with the journal on, 0.5 with --journal-size 0, on list, get and POST')
  for (const { route, results } of figures.filter((figure) => !figure.route.includes('status='))) {
    for (const [setup, target] of TARGETS) {
      const ratio = results[setup]?.ratio ?? Number.NaN
      console.log(`- ${route}, ${setup}: ${ratio.toFixed(2)} ${ratio >= target ? 'meets' : 'misses'} ${target}`)
    }
  }
}
