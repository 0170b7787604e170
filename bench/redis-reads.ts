/**
 * `npm run bench:redis-reads [-- <another checkout, built>]`: how much a replica of `serve --isolate
 * --store` grows while control reads copy from Redis, and how long /healthz waits meanwhile: 16 name
 * searches at once over a team's store of 20,000 animals with 4,000-character names (80 MB), and 8
 * journal pages at once over every team's journal (three teams' 1,000 requests of 16 KB headers
 * each, about 60 MB). Each figure is the replica's peak resident memory above where it stood before
 * the reads, sampled every 10 ms from /proc. Given another checkout, its replica is measured the
 * same way after this one's, over a Redis of its own.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { CLI, PINNING, pinLoadHere, type ServerProcess, startProcess } from './processes.js'
import { startRedis } from './redis-store.js'
import { percentile, sampleDuring } from './responsiveness.js'

const NAME = 'n'.repeat(4000)
const call = (server: ServerProcess, path: string, key: string | undefined, init: RequestInit = {}) =>
  fetch(`${server.origin}${path}`, { ...init, headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), 'content-type': 'application/json', ...init.headers } })

async function prepare(fake: ServerProcess): Promise<void> {
  const animals = Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, name: `${i % 1000 === 0 ? 'Rex ' : ''}${NAME}`, categoryId: 1 }))
  const loaded = await call(fake, '/__control/snapshot', 'search-team', { method: 'PUT', body: JSON.stringify(animals) })
  if (loaded.status !== 200) throw new Error(`the snapshot answered ${loaded.status}: ${await loaded.text()}`)
  for (const team of ['journal-1', 'journal-2', 'journal-3']) {
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 100 }, async (_, i) => (await call(fake, '/v1/pets?limit=100', team, { headers: { 'x-trace': `${batch}-${i}-${'t'.repeat(16_000)}` } })).arrayBuffer()))
    }
  }
}

/** The replica's peak resident memory above its start while `work` runs, and /healthz's waits meanwhile. */
async function during(fake: ServerProcess, work: () => Promise<unknown>): Promise<{ grewMb: number; healthP99: number; ms: number }> {
  await new Promise((wait) => setTimeout(wait, 500))
  const before = fake.rss()
  let peak = before
  let running = true
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, fake.rss())
      await new Promise((wait) => setTimeout(wait, 10))
    }
  })()
  let ms = 0
  const waits = await sampleDuring(fake.origin, async () => {
    const started = performance.now()
    await work()
    ms = performance.now() - started
  })
  running = false
  await sampler
  return { grewMb: (peak - before) / 1024 / 1024, healthP99: percentile(waits, 0.99), ms }
}

async function measure(cli: string): Promise<{ search: Awaited<ReturnType<typeof during>>; journal: Awaited<ReturnType<typeof during>> }> {
  const dir = mkdtempSync(join(tmpdir(), 'animals-bench-reads-'))
  const redis = await startRedis(dir, 'everysec')
  const fake = await startProcess(cli, ['serve', '--isolate', '--store', redis.url, '--quiet'], { ANIMALS_MOCK_STORE_SECRET: randomBytes(32).toString('hex') })
  try {
    await prepare(fake)
    const search = await during(fake, () => Promise.all(Array.from({ length: 16 }, async () => (await call(fake, '/__control/animals?name=rex&limit=20', 'search-team')).arrayBuffer())))
    // The operator's read of every store's journal (no key, to a fake that takes any).
    const journal = await during(fake, () => Promise.all(Array.from({ length: 8 }, async () => (await call(fake, '/__control/journal?limit=100', undefined)).arrayBuffer())))
    return { search, journal }
  } finally {
    await fake.stop()
    redis.child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}

pinLoadHere()
const other = process.argv[2]
console.log(`# Control reads over Redis: a replica's growth and /healthz meanwhile\n\n${PINNING}\n`)
console.log('| build | 16 searches at once: grew MB | /healthz p99 ms | took ms | 8 journal pages at once: grew MB | /healthz p99 ms | took ms |\n|---|---:|---:|---:|---:|---:|---:|')
for (const [name, cli] of [['this checkout', CLI], ...(other === undefined ? [] : [[other, join(resolve(other), 'dist/cli.js')]])] as const) {
  const { search, journal } = await measure(cli)
  const f = (value: number) => value.toFixed(0)
  console.log(`| ${name} | **${f(search.grewMb)}** | ${f(search.healthP99)} | ${f(search.ms)} | **${f(journal.grewMb)}** | ${f(journal.healthP99)} | ${f(journal.ms)} |`)
}
