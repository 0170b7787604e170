import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { BENCH_KEY, median } from './load.js'
import { BARE, CLI } from './processes.js'

/** Start-up medians: from spawning each server to its first 200 from `GET /v1/pets`. */
export type StartupFigures = { readonly bareMs: number; readonly fakeMs: number; readonly ratio: number }

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Spawns a server on a known free port and polls until it answers 200; resolves with the milliseconds. */
async function timeToFirstAnswer(script: string, args: (port: number) => string[], env: Record<string, string>): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [script, ...args(port)], { env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' })
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: { authorization: `Bearer ${BENCH_KEY}`, connection: 'close' } })
        await response.arrayBuffer()
        if (response.status === 200) return performance.now() - started
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  } finally {
    child.kill('SIGKILL')
  }
}

/** Alternates the bare server and the CLI with the default fixture, `runs` times each. */
export async function compareStartup(runs: number): Promise<StartupFigures> {
  const bare: number[] = []
  const fake: number[] = []
  const bareRoutes = JSON.stringify({ 'GET /v1/pets': { status: 200, body: '[]' } })
  for (let run = 0; run < runs; run++) {
    bare.push(await timeToFirstAnswer(BARE, () => [], { BARE_ROUTES: bareRoutes }))
    fake.push(await timeToFirstAnswer(CLI, (port) => ['serve', '--port', String(port)], {}))
  }
  const [bareMs, fakeMs] = [median(bare), median(fake)]
  return { bareMs, fakeMs, ratio: fakeMs / bareMs }
}
