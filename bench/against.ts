/**
 * `npm run bench:against -- <checkout>`: this checkout's fake against another build of it (a
 * worktree of `main` before a change, built with `npm run build`), route by route: both `serve`d as
 * users start them, pinned to the server core, loaded in turns, round after round; each ratio is the
 * median of the rounds' ratios (this / other), so the machine's drift cancels out.
 */
import { join, resolve } from 'node:path'
import { BENCH_KEY, LOAD_GENERATOR, loadRoute, median } from './load.js'
import { CLI, PINNING, pinLoadHere, startProcess } from './processes.js'
import { benchRoutes } from './routes.js'
import { summarise } from './throughput.js'

const other = process.argv[2]
if (other === undefined) throw new Error('usage: npm run bench:against -- <a checkout of animals-mock, built>')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const SECONDS = 1

pinLoadHere()
const args = ['serve', '--api-key', BENCH_KEY, '--fixture', 'large']
const servers = [await startProcess(CLI, args), await startProcess(join(resolve(other), 'dist/cli.js'), args)]
try {
  console.log(`# This checkout's fake against ${other}'s\n\n${LOAD_GENERATOR}, ${ROUNDS} rounds of ${SECONDS} s per route, taken in turns; ${PINNING}.\n`)
  console.log('| route | this req/s | other req/s | this p50 / p99 ms | other p50 / p99 ms | this / other |\n|---|---:|---:|---:|---:|---:|')
  for (const route of benchRoutes(5000)) {
    for (const server of servers) await loadRoute(server.origin, route, 2)
    const runs = servers.map(() => [] as Awaited<ReturnType<typeof loadRoute>>[])
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < servers.length; k++) {
        const s = (k + round) % servers.length
        runs[s]?.push(await loadRoute(servers[s]?.origin ?? '', route, SECONDS))
      }
    }
    const [mine = [], theirs = []] = runs
    const [a, b] = [summarise(mine), summarise(theirs)]
    const ratio = median(mine.map((run, i) => run.rps / (theirs[i]?.rps ?? Number.NaN)))
    console.log(`| \`${route.name}\` | ${Math.round(a.rps)} | ${Math.round(b.rps)} | ${a.p50.toFixed(2)} / ${a.p99.toFixed(2)} | ${b.p50.toFixed(2)} / ${b.p99.toFixed(2)} | **${ratio.toFixed(3)}** |`)
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()))
}
