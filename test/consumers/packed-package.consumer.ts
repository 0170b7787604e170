import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, extname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { hasChromium, keepToOrigin, launchChromium } from '../support/browser.js'
import { shippedPets } from '../support/fixtures.js'
import { startIndependentService } from '../support/independent-service/service.js'
import { NPX, type Run, run } from './app-process.js'
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

/** The first fenced block of `lang` in `doc` that starts with `firstLine`, exactly as written there. */
function block(doc: string, lang: 'ts' | 'sh', firstLine: string): string {
  const text = readFileSync(join(ROOT, doc), 'utf8')
  const found = text.split(`\n\`\`\`${lang}\n`).slice(1).map((rest) => rest.slice(0, rest.indexOf('\n```') + 1)).find((code) => code.startsWith(`${firstLine}\n`))
  if (found === undefined) throw new Error(`${doc} has no ${lang} block starting with "${firstLine}"`)
  return found
}

/** The vitest recipe of the README, exactly as written there. */
const readmeRecipe = (): string => block('README.md', 'ts', '// pets.test.ts')

/** The environments frontend teams run component tests in; happy-dom's Headers keep the case of names. */
const ENVIRONMENTS = ['node', 'jsdom', 'happy-dom'] as const

/** A test of one environment: it is in force, and requests with capitalised header names are read. */
function capitalisedHeaders(environment: (typeof ENVIRONMENTS)[number]): string {
  return `// @vitest-environment ${environment}
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createFake, createHandlers, failOnUnhandledRequests } from 'animals-mock/msw'

const baseUrl = 'https://api.example.com/v1'
const server = setupServer(...createHandlers({ baseUrl, fake: createFake({ keys: ['consumer-key'] }) }))
beforeAll(() => server.listen(failOnUnhandledRequests))
afterAll(() => server.close())

it('runs under ${environment}', () => {
  const agent = typeof navigator === 'undefined' || typeof window === 'undefined' ? 'node' : navigator.userAgent
  expect(agent).toMatch(new RegExp(${JSON.stringify({ node: '^node$', jsdom: 'jsdom', 'happy-dom': 'HappyDOM' }[environment])}))
})

it('reads Authorization spelt as generated clients send it', async () => {
  const response = await fetch(\`\${baseUrl}/pets?limit=2\`, { headers: { Authorization: 'Bearer consumer-key' } })
  expect(response.status).toBe(200)
  expect(await response.json()).toHaveLength(2)
})

it('reads Content-Type capitalised', async () => {
  const response = await fetch(\`\${baseUrl}/pets\`, {
    method: 'POST',
    headers: { Authorization: 'Bearer consumer-key', 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Capital', categoryId: 1 }),
  })
  expect(response.status).toBe(201)
})
`
}

/** The README's recipe and the header test in each environment: 3 × (3 + 3) tests. */
function writeEnvironmentTests(app: string): void {
  for (const environment of ENVIRONMENTS) {
    writeFileSync(join(app, `pets.${environment}.test.ts`), `// @vitest-environment ${environment}\n${readmeRecipe()}`)
    writeFileSync(join(app, `headers.${environment}.test.ts`), capitalisedHeaders(environment))
  }
}

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

it('runs the README\'s vitest recipe verbatim in a vitest 4 app on Node 20 with msw 2 under node, jsdom and happy-dom, and the CLI from the package', async () => {
  const app = installApp('node20-vitest4-msw2', tarball)
  writeEnvironmentTests(app)
  const tests = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], app)
  expect(tests.code, tests.stdout + tests.stderr).toBe(0)
  expect(tests.stdout).toMatch(/Test Files +6 passed/)
  expect(tests.stdout).toMatch(/Tests +18 passed/)
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

it('runs the README\'s vitest recipe verbatim in a vitest 5 app on Node 24 with msw 3 under node, jsdom and happy-dom, and verify with Pact 17', async () => {
  const app = installApp('node24-vitest5-msw3', tarball)
  writeEnvironmentTests(app)
  const tests = await run(node24, ['node_modules/vitest/vitest.mjs', 'run'], app)
  expect(tests.code, tests.stdout + tests.stderr).toBe(0)
  expect(tests.stdout).toMatch(/Test Files +6 passed/)
  expect(tests.stdout).toMatch(/Tests +18 passed/)
  await checkCli(node24, app)
  const base = await serveFromPackage(node24, app, ['--api-key', 'consumer-key'])
  const verify = await run(node24, [NPX, 'animals-mock', 'verify', '--base-url', base], app, { ANIMALS_MOCK_VERIFY_KEY: 'consumer-key' })
  expect(verify.code, verify.stdout + verify.stderr).toBe(0)
  expect(verify.stdout).toContain('15 interactions: 15 passed, 0 failed')
})

it.skipIf(!hasChromium)('serves a browser app from the README\'s snippet, type-checked and bundled on msw 3\'s worker, in Chromium with no msw warning', async () => {
  const app = installApp('browser-msw3', tarball)
  // src/main.ts is the README's snippet as written; its renderApp is the app's own (src/app.ts).
  const snippet = block('README.md', 'ts', "// src/main.ts: start the worker before the app's first request, in development only")
  expect(readFileSync(join(ROOT, 'docs/msw.md'), 'utf8')).toContain(snippet)
  writeFileSync(join(app, 'src/main.ts'), `${snippet}import { renderApp } from './app.js'\n`)
  const checked = await run(node24, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], app)
  expect(checked.code, checked.stdout + checked.stderr).toBe(0)
  const site = join(app, 'public')
  mkdirSync(site, { recursive: true })
  writeFileSync(join(site, 'config.json'), '{}')
  const init = await run(node24, ['node_modules/msw/cli/index.js', 'init', 'public', '--no-save'], app)
  expect(init.code, init.stdout + init.stderr).toBe(0)
  expect(existsSync(join(site, 'mockServiceWorker.js'))).toBe(true)
  const bundle = await run(node24, ['node_modules/esbuild/bin/esbuild', 'src/main.ts', '--bundle', '--format=esm', '--target=es2022', '--outfile=public/main.js'], app)
  expect(bundle.code, bundle.stderr).toBe(0)
  cpSync(join(app, 'index.html'), join(site, 'index.html'))
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' }
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
    const logged: string[] = []
    page.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`))
    await page.goto(origin)
    // The request outside /v1 went through to the page's server, with no warning from msw.
    await page.getByTestId('status').filter({ hasText: 'config 200, created 201, listed 31' }).waitFor()
    expect(await page.getByTestId('animals').locator('li').allInnerTexts()).toContain('Made in the browser')
    expect(outside).toEqual([])
    expect(logged.filter((line) => /^(warning|error): /.test(line))).toEqual([])
    expect(logged.some((line) => line.includes('Mocking enabled'))).toBe(true) // the console is heard
  } finally {
    await browser.close()
    server.close()
  }
})

/** Runs a shell recipe as written, with bash -e, in the app on Node 24 (npx included). */
function shell(recipe: string, cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const path = `${dirname(node24)}:${dirname(NPX)}:${process.env.PATH ?? ''}`
    const child = spawn('bash', ['-e', '-c', recipe], { cwd, env: { ...process.env, PATH: path, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

it('runs the CI recipes of the README and the docs as written, through npx: an end-to-end suite around serve and around proxy', async () => {
  const app = installApp('ci-recipes', tarball)
  const proxyLine = "# CI: the end-to-end suite through the proxy to staging; the job fails on the suite's failure or on drift"
  const recipes = {
    serve: block('docs/cli.md', 'sh', "# CI: the app's end-to-end suite against the fake on a free port; the job fails when the suite does"),
    proxy: block('README.md', 'sh', proxyLine),
    proxyWithRecording: block('docs/proxy.md', 'sh', proxyLine),
  }
  const KEY = 'staging-e2e-key'
  const staging = await startIndependentService({ keys: [KEY], seeded: 30 })
  const drifted = await startIndependentService({ keys: [KEY], seeded: 30, drift: 'createPet answers 200' })
  const listening = (stdout: string): string => /^animals-mock listening on (\S+)$/m.exec(stdout)?.[1] ?? 'no banner'
  const reports = join(app, 'reports')
  try {
    const served = await shell(recipes.serve, app, {})
    expect(served.code, served.stdout + served.stderr).toBe(0)
    // The default fixture's sold animals and the one the suite created.
    const sold = shippedPets('default').filter((pet) => pet.status === 'sold').length + 1
    expect(served.stdout).toContain(`e2e: created 201, listed ${sold} sold at ${listening(served.stdout)}`)
    await expect(fetch(listening(served.stdout))).rejects.toThrow() // nothing left listening

    const passed = await shell(recipes.proxy, app, { STAGING_API_URL: staging.baseUrl, E2E_API_KEY: KEY })
    expect(passed.code, passed.stdout + passed.stderr).toBe(0)
    expect(passed.stdout).toContain(`e2e: created 201, listed 11 sold at ${listening(passed.stdout)}`)
    expect(JSON.parse(readFileSync(join(reports, 'proxy.json'), 'utf8'))).toMatchObject({ target: staging.baseUrl, exchanges: 2, violations: 0, passed: true })
    expect(readFileSync(join(reports, 'proxy.xml'), 'utf8')).toContain('2 exchanges, no violation')
    await expect(fetch(listening(passed.stdout))).rejects.toThrow()

    rmSync(reports, { recursive: true })
    const drift = await shell(recipes.proxyWithRecording, app, { STAGING_API_URL: drifted.baseUrl, E2E_API_KEY: KEY })
    expect(drift.code, drift.stdout + drift.stderr).toBe(1)
    expect(drift.stdout).toMatch(/^VIOLATION POST \/v1\/pets 200 status: /m)
    expect(JSON.parse(readFileSync(join(reports, 'proxy.json'), 'utf8'))).toMatchObject({ violations: 1, passed: false })
    expect(JSON.parse(readFileSync(join(reports, 'qa-from-staging.json'), 'utf8'))).toHaveLength(11)

    // The suite's own failure decides first, and the reports are still written.
    rmSync(reports, { recursive: true })
    const failed = await shell(recipes.proxy, app, { STAGING_API_URL: drifted.baseUrl, E2E_API_KEY: KEY, E2E_EXIT: '5' })
    expect(failed.code, failed.stdout + failed.stderr).toBe(5)
    expect(JSON.parse(readFileSync(join(reports, 'proxy.json'), 'utf8'))).toMatchObject({ violations: 1 })
  } finally {
    await Promise.all([staging.close(), drifted.close()])
  }
})

it('compiles TypeScript consumers against the published types (node16 and bundler), and publint and attw find nothing, node10 included', async () => {
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
  // ESM only, as the package says: CommonJS reaches it through require(esm) (Node 20.19 and later)
  // or import(). `animals-mock/msw` gives a require CommonJS declarations over the one ES build on
  // purpose (attw's "masquerading as CJS"): they name msw's CommonJS classes, which a CommonJS
  // app's setupServer takes, and describe what require(esm) returns. Every resolution is checked,
  // node10 included (typesVersions).
  const attw = await run(
    process.execPath,
    ['node_modules/@arethetypeswrong/cli/dist/index.js', tarball, '--ignore-rules', 'cjs-resolves-to-esm', 'false-cjs', '--format', 'table-flipped'],
    app,
  )
  expect(attw.code, attw.stdout + attw.stderr).toBe(0)
  // Every entry point green under node10, from CommonJS, from ESM and for bundlers.
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
