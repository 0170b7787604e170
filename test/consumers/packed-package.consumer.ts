import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, extname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { hasChromium, keepToOrigin, launchChromium } from '../support/browser.js'
import { installApp, installNode24, packInto, ROOT } from './packing.js'

// The package as its users get it: `npm pack`, then installed into fresh apps from their pinned
// locks, with no link to this repository. Each app runs on the Node its users run.
let tarball: string
let node24: string
const running: ChildProcess[] = []

beforeAll(() => {
  tarball = packInto(mkdtempSync(join(tmpdir(), 'animals-pack-')))
  node24 = installNode24()
  expect(execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim()).toBe('v24.21.0')
})
afterAll(() => {
  // npx runs the bin through a shell: the server is a grandchild, so the whole group goes.
  for (const child of running) if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
})

/** The vitest recipe of the README, exactly as written there. */
function readmeRecipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const match = /```ts\n(\/\/ pets\.test\.ts\n[\s\S]*?)```/.exec(readme)
  if (match?.[1] === undefined) throw new Error('the README has no "// pets.test.ts" recipe')
  return match[1]
}

type Run = { readonly code: number | null; readonly stdout: string; readonly stderr: string }

function run(node: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    // The app's Node first on PATH, so npx and the package's bin run on it too.
    const path = `${dirname(node)}:${process.env.PATH ?? ''}`
    const child = spawn(node, [...args], { cwd, env: { ...process.env, PATH: path, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** npx of the machine's npm, run on the app's Node. */
const NPX = join(dirname(execFileSync('which', ['npm'], { encoding: 'utf8' }).trim()), 'npx')

/** `npx animals-mock serve --port 0 ...` from the installed package; resolves with the API base. */
async function serveFromPackage(node: string, cwd: string, args: readonly string[] = []): Promise<string> {
  const child = spawn(node, [NPX, 'animals-mock', 'serve', '--port', '0', '--quiet', ...args], {
    cwd,
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  running.push(child)
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  for (let i = 0; i < 600; i++) {
    const match = /^animals-mock listening on (\S+)$/m.exec(stdout)
    if (match?.[1] !== undefined) return match[1]
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`serve did not start: ${stdout}`)
}

async function checkCli(node: string, appDir: string): Promise<void> {
  const version = await run(node, [NPX, 'animals-mock', '--version'], appDir)
  expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version)
  const usage = await run(node, [NPX, 'animals-mock'], appDir)
  expect(usage.code).toBe(0)
  expect(usage.stdout).toContain('Usage: animals-mock <command>')
  const help = await run(node, [NPX, 'animals-mock', 'verify', '--help'], appDir)
  expect(help.code).toBe(0)
  expect(help.stdout).toContain('Usage: animals-mock verify')
  const base = await serveFromPackage(node, appDir)
  const listed = await fetch(`${base}/pets?limit=3`, { headers: { authorization: 'Bearer k' } })
  expect(listed.status).toBe(200)
  expect(await listed.json()).toHaveLength(3)
  // swagger-ui-dist is an optional peer, not installed here: /docs says how to add it.
  const docs = await fetch(`${base.replace(/\/v1$/, '')}/docs`)
  expect(docs.status).toBe(200)
  expect(await docs.text()).toContain('npm install --save-dev swagger-ui-dist')
}

it('runs the README\'s vitest recipe verbatim in a vitest 4 app on Node 20 with msw 2, and the CLI from the package', async () => {
  const app = installApp('node20-vitest4-msw2', tarball)
  writeFileSync(join(app, 'pets.test.ts'), readmeRecipe())
  const tests = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], app)
  expect(tests.code, tests.stdout + tests.stderr).toBe(0)
  expect(tests.stdout).toMatch(/Tests +3 passed/)
  expect(process.version.startsWith('v20.')).toBe(true)
  await checkCli(process.execPath, app)
  // Pact is not installed here: verify says, in one line, how to add it.
  const verify = await run(process.execPath, [NPX, 'animals-mock', 'verify', '--base-url', 'http://127.0.0.1:9/v1'], app, {
    ANIMALS_MOCK_VERIFY_KEY: 'k',
  })
  expect(verify.code).toBe(2)
  // (npx may add warnings of its own, about the machine's npm configuration.)
  expect(verify.stderr.split('\n').filter((line) => line.startsWith('animals-mock'))).toEqual([
    "animals-mock: verify needs Pact's verifier, which is not installed: npm install --save-dev @pact-foundation/pact",
  ])
})

it('runs the README\'s vitest recipe verbatim in a vitest 5 app on Node 24 with msw 3, and verify with Pact 17', async () => {
  const app = installApp('node24-vitest5-msw3', tarball)
  writeFileSync(join(app, 'pets.test.ts'), readmeRecipe())
  const tests = await run(node24, ['node_modules/vitest/vitest.mjs', 'run'], app)
  expect(tests.code, tests.stdout + tests.stderr).toBe(0)
  expect(tests.stdout).toMatch(/Tests +3 passed/)
  await checkCli(node24, app)
  const base = await serveFromPackage(node24, app, ['--api-key', 'consumer-key'])
  const verify = await run(node24, [NPX, 'animals-mock', 'verify', '--base-url', base], app, { ANIMALS_MOCK_VERIFY_KEY: 'consumer-key' })
  expect(verify.code, verify.stdout + verify.stderr).toBe(0)
  expect(verify.stdout).toContain('15 interactions: 15 passed, 0 failed')
})

it.skipIf(!hasChromium)('serves a browser app bundled with esbuild on msw 3\'s worker, driven in Chromium', async () => {
  const app = installApp('browser-msw3', tarball)
  const site = join(app, 'public')
  mkdirSync(site, { recursive: true })
  const init = await run(node24, ['node_modules/msw/cli/index.js', 'init', 'public', '--no-save'], app)
  expect(init.code, init.stdout + init.stderr).toBe(0)
  expect(existsSync(join(site, 'mockServiceWorker.js'))).toBe(true)
  const bundle = await run(node24, ['node_modules/esbuild/bin/esbuild', 'src/main.ts', '--bundle', '--format=esm', '--target=es2022', '--outfile=public/main.js'], app)
  expect(bundle.code, bundle.stderr).toBe(0)
  cpSync(join(app, 'index.html'), join(site, 'index.html'))
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' }
  const server = createServer((req, res) => {
    const file = join(site, req.url === '/' ? 'index.html' : (req.url ?? '').split('?')[0] ?? '')
    if (!file.startsWith(site) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const browser = await launchChromium()
  try {
    const context = await browser.newContext()
    const outside = await keepToOrigin(context, origin)
    const page = await context.newPage()
    await page.goto(origin)
    await page.getByTestId('status').filter({ hasText: 'created 201, listed 31' }).waitFor()
    expect(await page.getByTestId('animals').locator('li').allInnerTexts()).toContain('Made in the browser')
    expect(outside).toEqual([])
  } finally {
    await browser.close()
    server.close()
  }
})

it('compiles TypeScript consumers against the published types (node16 and bundler), and publint and attw find nothing', async () => {
  const app = installApp('types', tarball)
  for (const tsc of ['node_modules/typescript/bin/tsc', 'node_modules/typescript7/bin/tsc']) {
    for (const config of ['tsconfig.node16.json', 'tsconfig.bundler.json']) {
      const compiled = await run(process.execPath, [tsc, '-p', config], app)
      expect(compiled.code, `${tsc} ${config}: ${compiled.stdout}${compiled.stderr}`).toBe(0)
    }
  }
  const publint = await run(process.execPath, ['node_modules/publint/src/cli.js', 'node_modules/animals-mock', '--strict'], app)
  expect(publint.code, publint.stdout + publint.stderr).toBe(0)
  expect(publint.stdout).toContain('All good!')
  // ESM only, as the package says: node10 resolution (no exports map) is no consumer of it, and
  // CommonJS reaches it through import() (or require(esm), Node 20.19 and later).
  const attw = await run(
    process.execPath,
    ['node_modules/@arethetypeswrong/cli/dist/index.js', tarball, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped'],
    app,
  )
  expect(attw.code, attw.stdout + attw.stderr).toBe(0)
  // Every entry point green from CommonJS, from ESM and for bundlers: no problem outside node10.
  const problems = attw.stdout.split('\n').map((line) => line.replace(/\(ignored\)[^│]*/g, '')).filter((line) => /❌|⚠️|💀|🐛|🥴|❗️/.test(line) && !line.includes('(ignored per resolution)'))
  expect(problems).toEqual([])
  expect(attw.stdout).toContain('"animals-mock/msw"')
})

/** Every package under node_modules, scoped ones included, with its manifest. */
function installedPackages(modules: string): Map<string, { dependencies?: Record<string, string>; scripts?: Record<string, string> }> {
  const found = new Map<string, { dependencies?: Record<string, string>; scripts?: Record<string, string> }>()
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue
    const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((inner) => `${entry}/${inner}`) : [entry]
    for (const name of names) {
      const manifest = join(modules, name, 'package.json')
      if (existsSync(manifest)) found.set(name, JSON.parse(readFileSync(manifest, 'utf8')))
    }
  }
  return found
}

it('installs light for a frontend: animals-mock and msw 3 within 40 MB, and nothing of animals-mock\'s with an install script', async () => {
  const app = installApp('frontend-size', tarball)
  const modules = join(app, 'node_modules')
  const bytes = Number(execFileSync('du', ['-sb', modules], { encoding: 'utf8' }).split('\t')[0])
  const packages = installedPackages(modules)
  // What animals-mock brings, beside msw: its dependencies, and theirs.
  const ours = new Set<string>()
  const visit = (name: string): void => {
    if (ours.has(name)) return
    ours.add(name)
    for (const dependency of Object.keys(packages.get(name)?.dependencies ?? {})) visit(dependency)
  }
  visit('animals-mock')
  const withScripts = [...ours].filter((name) => {
    const scripts = packages.get(name)?.scripts ?? {}
    return ['preinstall', 'install', 'postinstall'].some((hook) => scripts[hook] !== undefined)
  })
  console.log(`frontend install: ${(bytes / 1e6).toFixed(1)} MB, ${packages.size} packages (${ours.size} from animals-mock)`)
  expect(withScripts).toEqual([])
  expect(bytes).toBeLessThanOrEqual(40_000_000)
  expect([...ours].sort()).toEqual(['@faker-js/faker', 'animals-mock', 'lossless-json', 'openapi-types', 'yaml'])
})
