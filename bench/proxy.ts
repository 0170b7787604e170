/**
 * What `animals-mock proxy` adds to a request: the same requests to the fake directly and through
 * a proxy in front of it, one at a time on a kept-alive connection, rounds alternating; each
 * figure is the median latency. Run with `npm run bench:proxy`; `measureProxyLatency()` returns it.
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { CLI, pinLoadHere, startProcess } from './processes.js'
import { HOSTILE_ADDED_MS, measureHostileProxy } from './proxy-hostile.js'

const KEY = 'bench-key'

/** Median latency direct and through the proxy, and what the proxy adds (target: at most 1 ms). */
export type ProxyFigures = { readonly requests: number; readonly directP50Ms: number; readonly proxiedP50Ms: number; readonly addedP50Ms: number }

export async function measureProxyLatency(requests = 2_000, rounds = 5): Promise<ProxyFigures> {
  const fake = await startProcess(CLI, ['serve', '--api-key', KEY, '--quiet'])
  const proxy = await startProcess(CLI, ['proxy', '--target', `${fake.origin}/v1`, '--quiet'])
  const samples = { direct: [] as number[], proxied: [] as number[] }
  try {
    await run(`${fake.origin}/v1/pets/7`, 500)
    await run(`${proxy.origin}/v1/pets/7`, 500)
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const)
      for (const name of order) samples[name].push(...(await run(`${name === 'direct' ? fake.origin : proxy.origin}/v1/pets/7`, requests)))
    }
  } finally {
    await proxy.stop()
    await fake.stop()
  }
  const directP50Ms = median(samples.direct)
  const proxiedP50Ms = median(samples.proxied)
  return { requests: requests * rounds, directP50Ms, proxiedP50Ms, addedP50Ms: proxiedP50Ms - directP50Ms }
}

async function run(url: string, count: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`)
    times.push(performance.now() - started)
  }
  return times
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  pinLoadHere()
  const figures = await measureProxyLatency()
  console.log(`GET /v1/pets/{id}, ${figures.requests} requests each, one at a time: direct p50 ${figures.directP50Ms.toFixed(3)} ms, through the proxy ${figures.proxiedP50Ms.toFixed(3)} ms`)
  console.log(`  added by the proxy: ${figures.addedP50Ms.toFixed(3)} ms p50 (target <= 1 ms)`)
  for (const figure of await measureHostileProxy()) {
    console.log(`/healthz while ${figure.work}: proxy p99 ${figure.proxyP99.toFixed(1)} ms, bare ${figure.bareP99.toFixed(1)} ms, added ${figure.addedMs.toFixed(1)} ms over ${figure.samples} probes (target <= ${HOSTILE_ADDED_MS} ms)`)
  }
}
