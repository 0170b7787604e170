import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'

/** The built CLI: the benchmark measures what `npm start` runs. */
export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
/** The bare node:http server the fake is compared with. */
export const BARE = fileURLToPath(new URL('./bare-server.mjs', import.meta.url))

const TASKSET = '/usr/bin/taskset'

/**
 * Where each side runs: the servers measured on `SERVER_CORE`, this process (the probes, autocannon
 * and the wrk it starts, which inherits its core) on `LOAD_CORE`, each pinned with `taskset`.
 * Unpinned, one server's req/s swung 2x between runs on this 2-core machine, as the kernel moved
 * the server and the load onto one core and apart again. Without taskset or a second core nothing
 * is pinned, and `PINNING` says so in the benchmark's header.
 */
export const SERVER_CORE = 1
export const LOAD_CORE = 0
const canPin = existsSync(TASKSET) && cpus().length > Math.max(SERVER_CORE, LOAD_CORE)
export const PINNING = canPin ? `servers on core ${SERVER_CORE}, load and probes on core ${LOAD_CORE} (taskset)` : 'unpinned (no taskset or one core)'

/** Pins this process, every thread of it, to `LOAD_CORE`: what it starts afterwards inherits the core. */
export function pinLoadHere(): void {
  if (canPin) execFileSync(TASKSET, ['-a', '-p', '-c', String(LOAD_CORE), String(process.pid)], { stdio: 'ignore' })
}

/** A server in its own process, so the load generator and the server do not share an event loop. */
export type ServerProcess = { readonly origin: string; readonly child: ChildProcess; rss(): number; stop(): Promise<void> }

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Spawns `node <script> ...args` on a free port (given as `--port` when `portFlag`, and as PORT),
 * pinned to `SERVER_CORE`, and waits until it answers. Its output goes to /dev/null, as a log would go to a file or a terminal:
 * piped into this process it would cost the load generator, which runs here, its CPU.
 */
export async function startProcess(script: string, args: readonly string[], env: Record<string, string> = {}, portFlag = true): Promise<ServerProcess> {
  const port = await freePort()
  const command = [process.execPath, script, ...args, ...(portFlag ? ['--port', String(port)] : [])]
  const [file, ...rest] = canPin ? [TASKSET, '-c', String(SERVER_CORE), ...command] : command
  const child = spawn(file as string, rest, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const origin = `http://127.0.0.1:${port}`
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`)
    try {
      await (await fetch(`${origin}/healthz`, { headers: { connection: 'close' } })).arrayBuffer()
      break
    } catch {
      if (attempt > 2000) throw new Error(`${script} did not start`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  return {
    origin,
    child,
    rss: () => residentBytes(child.pid ?? 0),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** Resident memory of a process, from /proc (Linux). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}
