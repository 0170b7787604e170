import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { BROKER_TOKEN_ENV, VERIFY_KEY_ENV } from './deployment-options.js'
import type { WorkerReply, WorkerRequest } from './verify-worker.js'

const WORKER = fileURLToPath(new URL('./verify-worker.js', import.meta.url))

// Pact reads these itself; the command line alone decides what is verified and published.
const PACT_ENV_OVERRIDES = [
  'PACT_BROKER_BASE_URL',
  'PACT_BROKER_PUBLISH_VERIFICATION_RESULTS',
  'PACT_BROKER_USERNAME',
  'PACT_BROKER_PASSWORD',
] as const

/** What the worker answered, and everything it printed (Pact's own report and logs). */
export type VerifierRun = { readonly reply: WorkerReply; readonly log: string }

/**
 * Runs the verification in a worker process (`verify-worker.js`) and collects its answer and its
 * output. The worker's environment has no key (it arrives over IPC), no broker token unless a
 * broker is used, no Pact broker variables, and `PACT_DO_NOT_TRACK=true`. `worker` is for tests
 * (a stand-in, or the built worker when they run the sources); `verify` always forks verify-worker.js.
 */
export async function runVerifierProcess(request: WorkerRequest, env: NodeJS.ProcessEnv, worker: string = WORKER): Promise<VerifierRun> {
  const withBroker = request.options.broker !== undefined
  const child = fork(worker, [], { env: workerEnv(env, withBroker), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  const chunks: Buffer[] = []
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk))
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk))
  let received: WorkerReply | undefined
  child.on('message', (message: WorkerReply) => {
    received = message
  })
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  child.send(request)
  const code = await exited
  const log = Buffer.concat(chunks).toString('utf8')
  const silent: WorkerReply = { ok: false, message: `the verifier ended (exit code ${code}) without a report: ${lastError(log)}` }
  return { reply: received ?? silent, log }
}

function workerEnv(env: NodeJS.ProcessEnv, withBroker: boolean): NodeJS.ProcessEnv {
  const copy: NodeJS.ProcessEnv = { ...env, PACT_DO_NOT_TRACK: 'true' }
  for (const name of PACT_ENV_OVERRIDES) delete copy[name]
  delete copy[VERIFY_KEY_ENV]
  if (!withBroker) delete copy[BROKER_TOKEN_ENV]
  return copy
}

function lastError(log: string): string {
  const lines = log.split('\n').map((line) => line.trim())
  return lines.filter((line) => line.startsWith('Error') || line.includes('ERROR')).pop() ?? lines.filter(Boolean).pop() ?? 'no output'
}

/**
 * Why publishing the results failed, from the verifier's log: the verifier logs the failure and
 * carries on, so a CI job would otherwise pass without its results reaching the broker.
 */
export function publishingError(log: string): string | undefined {
  const line = log.split('\n').find((each) => each.includes('ERROR') && each.toLowerCase().includes('publish'))
  if (line === undefined) return undefined
  const marker = 'with an error: '
  const at = line.indexOf(marker)
  return at === -1 ? line.slice(line.indexOf('ERROR')).trim() : line.slice(at + marker.length).trim()
}
