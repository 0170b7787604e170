import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../support/browser.js'
import { NPM, run } from './app-process.js'
import { installApp, installNode24, packInto } from './packing.js'

// The frameworks frontend teams build on, each a fresh app on Node 24 with the packed package:
// Next.js 16 (a server component and a server action, against `serve -- ...` and with msw in
// instrumentation.ts) and Angular 22 (HttpClient over XHR and fetch, under `ng test`).
let tarball: string
let node24: string

beforeAll(() => {
  tarball = packInto(mkdtempSync(join(tmpdir(), 'animals-pack-')))
  node24 = installNode24()
})

const QUIET = { NEXT_TELEMETRY_DISABLED: '1', NG_CLI_ANALYTICS: 'false' }

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * An npm script of the app as written in its package.json, on Node 24 in its own process group:
 * run by `sh -c 'exec <script>'`, so that a signal to the child reaches the script's first command
 * itself (npm passes signals to its shell, and dash does not pass them on). Its output so far, and
 * its end once every process holding its output has ended.
 */
function start(dir: string, script: string, env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  const text = scripts[script] ?? ''
  // A script that begins with an assignment (VAR=value command) is run as it is.
  const child = spawn('sh', ['-c', /^\w+=/.test(text) ? text : `exec ${text}`], {
    cwd: dir,
    env: { ...process.env, PATH: `${join(dir, 'node_modules/.bin')}:${dirname(node24)}:${process.env.PATH ?? ''}`, ...QUIET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text))
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text))
  return { child, output: () => output, exited: new Promise((resolve) => child.on('close', (code) => resolve(code))) }
}

async function answering(url: string, output: () => string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await fetch(url).then((response) => response.ok, () => false)) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} never answered:\n${output()}`)
}

/**
 * The home page lists the service's animals; its form's server action adds one, which the list then
 * shows; /built says what the service held when it was rendered (by `next build`: before the add).
 */
async function listAndAdd(app: string, built: 'prerendered' | 'rendered on demand'): Promise<void> {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    if (built === 'rendered on demand') {
      await page.goto(`${app}/built`)
      expect(await page.getByRole('status').innerText()).toBe('30 animals when built')
    }
    await page.goto(app)
    await page.getByRole('status').filter({ hasText: '30 animals' }).waitFor()
    await page.getByLabel('name').fill('Biscuit')
    await page.getByRole('button', { name: 'Add' }).click()
    await page.getByRole('status').filter({ hasText: '31 animals' }).waitFor()
    expect(await page.getByRole('listitem').last().innerText()).toBe('Biscuit')
    if (built === 'prerendered') {
      await page.goto(`${app}/built`)
      expect(await page.getByRole('status').innerText()).toBe('30 animals when built')
    }
  } finally {
    await browser.close()
  }
}

describe('Next.js 16, app router', () => {
  let dir: string
  const started: ChildProcess[] = []
  beforeAll(() => {
    dir = installApp('nextjs', tarball)
  })
  afterAll(() => {
    for (const { pid } of started) {
      try {
        if (pid !== undefined) process.kill(-pid, 'SIGKILL')
      } catch {
        // ended already
      }
    }
  })

  it('renders a server component and runs a server action against `serve -- sh -c \'next build && next start\'`; SIGTERM ends both, freeing the port', async () => {
    const port = await freePort()
    const app = `http://127.0.0.1:${port}`
    const served = start(dir, 'start:serve', { APP_PORT: String(port) })
    started.push(served.child)
    await answering(`${app}/built`, served.output)
    // The build prerendered /built from the fake: `next build` needs it up.
    expect(served.output()).toMatch(/○ \/built/)
    await listAndAdd(app, 'prerendered')
    // animals-mock passes the signal to the command's whole group: next start too.
    served.child.kill('SIGTERM')
    expect(await served.exited).toBe(143)
    expect(served.output()).toContain('animals-mock stopped')
    expect(await fetch(app).then(() => 'answered', () => 'refused')).toBe('refused')
  })

  it('answers the server\'s own fetches from msw handlers registered in instrumentation.ts, in `next dev`', async () => {
    const port = await freePort()
    const app = `http://127.0.0.1:${port}`
    const dev = start(dir, 'dev:msw', { APP_PORT: String(port) })
    started.push(dev.child)
    await answering(`${app}/built`, dev.output)
    await listAndAdd(app, 'rendered on demand')
  })
})

it('tests an Angular 22 component over HttpClient, its XHR backend and withFetch(), under `ng test` (Vitest 5, jsdom) with msw', async () => {
  const dir = installApp('angular', tarball)
  const result = await run(node24, [NPM, 'test'], dir, QUIET)
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)
  expect(result.stdout).toMatch(/src\/app\/pets\.spec\.ts \(8 tests\)/)
  expect(result.stdout).toMatch(/Tests +8 passed/)
})
