import { Worker } from 'node:worker_threads'
import { CLI, startProcess } from './processes.js'

/** How long /healthz took while a large seed and a large snapshot load ran in the fake. */
export type Responsiveness = { readonly work: string; readonly samples: number; readonly p50: number; readonly p99: number; readonly max: number }

/** The value at fraction `p` of sorted samples (0.99: the 99th percentile). */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

// The probe's loop, in a worker thread: the work's own parsing on the main thread (a 1 MiB journal
// page's JSON.parse takes milliseconds) would otherwise delay the probe's answers and be counted as
// the server's. Both threads run on the load core.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads')
let running = true
parentPort.on('message', () => { running = false })
const waits = []
;(async () => {
  // A first request, not counted: a thread's first fetch sets its client up (tens of ms).
  await (await fetch(workerData.origin + '/healthz')).arrayBuffer()
  parentPort.postMessage('ready')
  while (running) {
    const started = performance.now()
    await (await fetch(workerData.origin + '/healthz')).arrayBuffer()
    waits.push(performance.now() - started)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  parentPort.postMessage(waits)
})()`

/** /healthz of `origin` every 5 ms while `work` runs, asked from a thread of its own: its waits, sorted. */
export async function sampleDuring(origin: string, work: () => Promise<unknown>): Promise<number[]> {
  const probe = new Worker(PROBE, { eval: true, workerData: { origin } })
  const told = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      probe.once('message', resolve)
      probe.once('error', reject)
    })
  await told<'ready'>()
  const waits = told<number[]>()
  try {
    await work()
  } catch (error) {
    await probe.terminate()
    throw error
  }
  probe.postMessage('stop')
  const sorted = (await waits).sort((a, b) => a - b)
  await probe.terminate()
  return sorted
}

/**
 * Starts `serve` and, while asking /healthz every 5 ms, seeds a million animals through the control
 * API, then exports them and loads the snapshot back: the API must keep answering meanwhile.
 */
export async function measureResponsiveness(): Promise<Responsiveness[]> {
  const server = await startProcess(CLI, ['serve', '--fixture', 'empty', '--quiet'])
  const control = (path: string, init: RequestInit = {}) =>
    fetch(`${server.origin}/__control${path}`, { ...init, headers: { 'content-type': 'application/json' } })
  try {
    const figures: Responsiveness[] = []
    const record = (work: string, waits: readonly number[]): void =>
      void figures.push({ work, samples: waits.length, p50: percentile(waits, 0.5), p99: percentile(waits, 0.99), max: waits.at(-1) ?? 0 })
    record('seeding 1,000,000 animals (POST /__control/seed)', await sampleDuring(server.origin, () => control('/seed', { method: 'POST', body: '{"count":1000000,"seed":1}' })))
    const snapshot = await (await control('/snapshot')).text()
    await control('/reset', { method: 'POST' })
    record('loading a 1,000,000-animal snapshot (PUT /__control/snapshot)', await sampleDuring(server.origin, () => control('/snapshot', { method: 'PUT', body: snapshot })))
    return figures
  } finally {
    await server.stop()
  }
}
