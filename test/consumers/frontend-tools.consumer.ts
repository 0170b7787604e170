import { readFile } from 'node:fs/promises'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM_PATH, launchChromium } from '../support/browser.js'
import { NPM, type Run, run } from './app-process.js'
import { installApp, installNode24, packInto } from './packing.js'

// Where frontend teams run their tests, each a fresh app on Node 24 with the packed package and
// Debian's Chromium: Playwright with @msw/playwright (a fake per test), Playwright against one
// `serve --isolate` (a key per worker), Vitest browser mode, and Storybook with the msw addon.
let tarball: string
let node24: string

beforeAll(() => {
  tarball = packInto(mkdtempSync(join(tmpdir(), 'animals-pack-')))
  node24 = installNode24()
})

/** Runs one npm script of an installed app on Node 24, and fails with its output if it fails. */
async function runScript(dir: string, script: string): Promise<Run> {
  const result = await run(node24, [NPM, 'run', script], dir, { CHROMIUM: CHROMIUM_PATH, STORYBOOK_DISABLE_TELEMETRY: '1' })
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)
  return result
}

/** Installs the app, then runs one npm script in it. */
async function runApp(app: string, script: string): Promise<{ dir: string; result: Run }> {
  const dir = installApp(app, tarball)
  return { dir, result: await runScript(dir, script) }
}

describe('Playwright, one app with two suites of the same tests', () => {
  let dir: string
  beforeAll(() => {
    dir = installApp('playwright', tarball)
  })

  it('gives every Playwright test its own fake through @msw/playwright, tests in two workers at once', async () => {
    const result = await runScript(dir, 'test:msw')
    expect(result.stdout).toMatch(/Running 5 tests using 2 workers/)
    expect(result.stdout).toMatch(/5 passed/)
  })

  it('gives every Playwright worker its own store of one `serve --isolate`, reset before each test, its rules and latency its own', async () => {
    const result = await runScript(dir, 'test:isolate')
    expect(result.stdout).toMatch(/Running 7 tests using 2 workers/)
    expect(result.stdout).toMatch(/7 passed/)
  })
})

it('runs component tests in Vitest browser mode in Chromium behind msw\'s worker', async () => {
  const { result } = await runApp('vitest-browser', 'test')
  expect(result.stdout).toMatch(/chromium.*src\/pets-list\.test\.ts \(4 tests\)/)
  expect(result.stdout).toMatch(/Tests +4 passed/)
})

describe('Storybook with msw-storybook-addon', () => {
  let site: Server
  let url: string

  beforeAll(async () => {
    const { dir } = await runApp('storybook', 'build')
    site = await serveStatic(join(dir, 'storybook-static'))
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => site?.close(() => resolve())))

  /** What each story shows once its answer is in. */
  const STORIES = {
    'default-animals': { status: '30 animals', items: 30 },
    'empty-store': { status: 'No animals', items: 0 },
    'long-list': { status: '100 animals', items: 100 },
    'service-down': { alert: /^Error 503: / },
    'no-key': { alert: /^Error 401: / },
    'slow-answer': { status: '30 animals', items: 30 },
  } as const

  it('shows each story in the state the fake gives it, in Chromium', async () => {
    const browser = await launchChromium()
    try {
      for (const [story, expected] of Object.entries(STORIES)) {
        const page = await browser.newPage()
        const started = Date.now()
        await page.goto(`${url}/iframe.html?id=petslist--${story}&viewMode=story`)
        if (story === 'slow-answer') await page.getByRole('status').filter({ hasText: 'Loading animals' }).waitFor()
        if ('alert' in expected) {
          await page.getByRole('alert').waitFor()
          expect(await page.getByRole('alert').innerText(), story).toMatch(expected.alert)
        } else {
          await page.getByRole('status').filter({ hasText: expected.status }).waitFor({ timeout: 15_000 })
          expect(await page.locator('#storybook-root li').count(), story).toBe(expected.items)
        }
        if (story === 'slow-answer') expect(Date.now() - started).toBeGreaterThanOrEqual(1_500)
        await page.close()
      }
    } finally {
      await browser.close()
    }
  })
})

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.png': 'image/png', '.ico': 'image/x-icon' }

/** A static server of a built site on 127.0.0.1 (a service worker needs a secure context: loopback is one). */
function serveStatic(root: string): Promise<Server> {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://site').pathname)).replace(/^(\.\.[/\\])+/, '')
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path)
    try {
      const body = await readFile(file)
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}
