import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The built CLI: the benchmark measures what `npm start` runs. */
export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
/** The bare node:http server the fake is compared with. */
export const BARE = fileURLToPath(new URL('./bare-server.mjs', import.meta.url))

/** A server in its own process, so the load generator and the server do not share an event loop. */
export type ServerProcess = { readonly origin: string; readonly child: ChildProcess; rss(): number; stop(): Promise<void> }

const LISTENING = /^animals-mock listening on (http:\/\/\S+)\/v1$/m

/** Spawns `node <script> ...args` and waits for the listening line both servers print. */
export async function startProcess(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const origin = await new Promise<string>((resolve, reject) => {
    let output = ''
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      output += text
      const match = LISTENING.exec(output)
      if (match?.[1] !== undefined) resolve(match[1])
    })
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)))
  })
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
