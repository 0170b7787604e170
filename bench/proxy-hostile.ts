/**
 * `animals-mock proxy` in front of a target that attacks it (test/support/hostile-target.ts): how
 * long /healthz waits while the proxy cuts four 300 MB answers at its cap, passes a gzip bomb and a
 * gzip of a 300 MB list on, and judges a 4 MB list in a worker. The probe runs here and the target
 * in a process of its own, both on the load core; the proxy runs on the server core. Each work is
 * repeated for at least `WORK_MS`, so that its p99 rests on a few hundred probes. Each round probes, during the same
 * work, the proxy and then a bare node:http server beside it, so the machine's load is in both.
 * Target (docs/guarantees.md): the proxy's p99 within 100 ms of the bare server's.
 * Run with `npm run bench:proxy`; `measureHostileProxy()` returns the figures.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { BARE, CLI, startProcess } from './processes.js'
import { percentile, sampleDuring } from './responsiveness.js'

/** What the proxy's /healthz may add at p99 to a bare server's while a hostile answer goes through. */
export const HOSTILE_ADDED_MS = 100

export type HostileFigure = { readonly work: string; readonly proxyP99: number; readonly bareP99: number; readonly addedMs: number; readonly samples: number }


const get = async (url: string): Promise<number> => {
  const response = await fetch(url, { headers: { authorization: 'Bearer hostile-key', 'accept-encoding': 'gzip' } })
  await response.body?.cancel()
  return response.status
}

const WORK_MS = 2_000

/** Runs `work` over and over until `WORK_MS` have passed. */
async function repeated(work: () => Promise<unknown>): Promise<void> {
  const until = performance.now() + WORK_MS
  while (performance.now() < until) await work()
}

async function startTarget(): Promise<{ readonly baseUrl: string; stop(): void }> {
  const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url))
  const child = spawn(tsx, [fileURLToPath(new URL('./hostile-target-server.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] })
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (text: string) => resolve(text.trim()))
    child.once('exit', (code) => reject(new Error(`the hostile target exited with ${code}`)))
  })
  return { baseUrl, stop: () => child.kill() }
}

export async function measureHostileProxy(rounds = 3): Promise<HostileFigure[]> {
  const target = await startTarget()
  const proxy = await startProcess(CLI, ['proxy', '--target', target.baseUrl, '--quiet'])
  const bare = await startProcess(BARE, [], {}, false)
  const base = `${proxy.origin}/v1`
  const work: readonly { readonly work: string; readonly run: () => Promise<unknown> }[] = [
    { work: 'four 300 MB answers at once, each cut at the cap (502)', run: () => Promise.all(Array.from({ length: 4 }, () => get(`${base}/pets?size=300000000`))) },
    { work: 'a 407 KB gzip bomb passed on as sent', run: () => get(`${base}/pets?gzip=bomb`) },
    { work: 'a 1.9 MB gzip of a 300 MB list passed on, unjudged past the cap', run: () => get(`${base}/pets?gzip=list`) },
    { work: 'a 4 MB list judged in a worker', run: () => get(`${base}/pets?size=4000000`) },
  ]
  try {
    const figures: HostileFigure[] = []
    for (const { work: name, run } of work) {
      const waits = { proxy: [] as number[], bare: [] as number[] }
      for (let round = 0; round < rounds; round++) {
        waits.proxy.push(...(await sampleDuring(proxy.origin, () => repeated(run))))
        waits.bare.push(...(await sampleDuring(bare.origin, () => repeated(run))))
      }
      const sorted = { proxy: waits.proxy.sort((a, b) => a - b), bare: waits.bare.sort((a, b) => a - b) }
      const proxyP99 = percentile(sorted.proxy, 0.99)
      const bareP99 = percentile(sorted.bare, 0.99)
      figures.push({ work: name, proxyP99, bareP99, addedMs: proxyP99 - bareP99, samples: sorted.proxy.length })
    }
    return figures
  } finally {
    await proxy.stop()
    await bare.stop()
    target.stop()
  }
}
