/**
 * `npm run bench:churn`: one team's list requests while another team changes its own forced rules
 * and latency (100 changes a second), against the same run with the team reading them as often
 * instead (the same requests, no change), interleaved: the fake in
 * memory and one replica of `serve --isolate --store` over Redis (`appendfsync always`). Each key
 * has its own store, whose rules are versioned on their own, so the churn should fail none of the
 * other team's requests and leave its p99 within 2x. The fakes and Redis run on the server core;
 * wrk and the churning loop on the other.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BENCH_KEY, type LoadResult, loadRoute, median } from './load.js'
import { CLI, PINNING, pinLoadHere, type ServerProcess, startProcess } from './processes.js'
import { startRedis } from './redis-store.js'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const SECONDS = 5
const CHURNING_KEY = 'churning-team'
const ROUTE = { name: 'GET /v1/pets?limit=20', method: 'GET', path: '/v1/pets?limit=20', target: 0 } as const

/**
 * How many changes a second the churning team makes at most: a rule and a latency every 20 ms,
 * a test suite's setup in a tight loop. Paced, so that both fakes meet the same churn (unpaced, the
 * in-memory fake takes four times as many, and the server core spends itself answering them).
 */
const CHANGES_PER_SECOND = 100

/**
 * Changes the churning team's own rules and latency, one after the other, until `stop` is set; how
 * many changes it made. Without `changing`, it reads them instead, as often: the quiet run has the
 * same requests on the same cores, and differs by the changes alone.
 */
async function churn(origin: string, stop: { done: boolean }, changing: boolean): Promise<number> {
  const headers = { authorization: `Bearer ${CHURNING_KEY}`, 'content-type': 'application/json' }
  const started = performance.now()
  let changes = 0
  while (!stop.done) {
    const due = started + (changes / CHANGES_PER_SECOND) * 1000
    if (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, due - performance.now()))
    const ask = async (method: string, path: string, body?: unknown) => void (await (await fetch(`${origin}/__control${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })).arrayBuffer())
    if (changing) {
      await ask('POST', '/forced', { method: 'GET', path: '/pets/1', status: 503, times: 1 })
      await ask('PUT', '/latency', { ms: changes % 4 === 0 ? 1 : 0 })
    } else {
      await ask('GET', '/forced')
      await ask('GET', '/latency')
    }
    // Its own rules, cleared now and then so that it never reaches 1,000 of them.
    if (changing && changes % 400 === 398) await ask('DELETE', '/forced')
    changes += 2
  }
  return changes
}

/** The quiet and churned runs of one fake, round after round, the two in turns. */
async function measure(origin: string): Promise<{ quiet: LoadResult[]; churned: LoadResult[]; changes: number }> {
  // Both teams' stores made, and warmed.
  await loadRoute(origin, ROUTE, 2)
  await (await fetch(`${origin}/v1/pets`, { headers: { authorization: `Bearer ${CHURNING_KEY}` } })).arrayBuffer()
  const quiet: LoadResult[] = []
  const churned: LoadResult[] = []
  let changes = 0
  for (let round = 0; round < ROUNDS; round++) {
    for (const withChurn of round % 2 === 0 ? [false, true] : [true, false]) {
      const stop = { done: false }
      const churning = churn(origin, stop, withChurn)
      ;(withChurn ? churned : quiet).push(await loadRoute(origin, ROUTE, SECONDS))
      stop.done = true
      const made = await churning
      if (withChurn) changes += made
    }
  }
  return { quiet, churned, changes }
}

pinLoadHere()
const dir = mkdtempSync(join(tmpdir(), 'animals-bench-churn-'))
const redis = await startRedis(dir, 'always')
const servers: ServerProcess[] = []
try {
  const args = ['serve', '--isolate', '--fixture', 'large', '--quiet']
  servers.push(await startProcess(CLI, args), await startProcess(CLI, [...args, '--store', redis.url], { ANIMALS_MOCK_STORE_SECRET: randomBytes(32).toString('hex') }))
  console.log(`# One team's list requests (${ROUTE.name}, key ${BENCH_KEY}) while another changes its own rules and latency\n`)
  console.log(`${PINNING}; wrk, 32 connections; ${ROUNDS} rounds of ${SECONDS} s each way, in turns; medians\n`)
  console.log('| fake | quiet req/s | quiet p99 ms | churned req/s | churned p99 ms | churned / quiet p99 | failed (non-2xx) | changes / s | target |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const [name, server] of [['in memory', servers[0]], ['Redis, 1 replica (--isolate --store)', servers[1]]] as const) {
    const { quiet, churned, changes } = await measure(server?.origin ?? '')
    const p99 = (runs: readonly LoadResult[]) => median(runs.map((run) => run.p99))
    const rps = (runs: readonly LoadResult[]) => median(runs.map((run) => run.rps))
    const failed = churned.reduce((sum, run) => sum + run.errors, 0) + quiet.reduce((sum, run) => sum + run.errors, 0)
    console.log(`| ${name} | ${rps(quiet).toFixed(0)} | ${p99(quiet).toFixed(2)} | ${rps(churned).toFixed(0)} | ${p99(churned).toFixed(2)} | **${(p99(churned) / p99(quiet)).toFixed(2)}** | ${failed} | ${(changes / (ROUNDS * SECONDS)).toFixed(0)} | ≤ 2, 0 failed |`)
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()))
  redis.child.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
}
