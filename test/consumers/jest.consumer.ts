import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { NPM, type Run, run } from './app-process.js'
import { APPS, installApp, installNode24, packInto } from './packing.js'

// Jest 30, as a React app runs it, from the packed package: the jest.config.js of docs/frontend.md
// with msw 2 on Node 20 and msw 3 on Node 24, and `animals-mock serve -- jest` with no transform.
// The Node 20 app holds only its versions; its sources are the Node 24 app's.
let tarball: string
let node24: string

beforeAll(() => {
  tarball = packInto(mkdtempSync(join(tmpdir(), 'animals-pack-')))
  node24 = installNode24()
})

const SOURCES = ['jest.config.js', 'babel.config.js', 'src', 'serve']

/** Runs an npm script of the app, with Jest's cache in a folder of its own (`cold`: a new one). */
async function jest(node: string, dir: string, script: string, cache: string): Promise<Run & { readonly ms: number }> {
  const started = performance.now()
  const result = await run(node, [NPM, 'run', script, '--', `--cacheDirectory=${cache}`], dir)
  const ms = performance.now() - started
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)
  return { ...result, ms }
}

describe.each([
  { app: 'jest-node24-msw3', node: () => node24, versions: 'Node 24, msw 3' },
  { app: 'jest-node20-msw2', node: () => process.execPath, versions: 'Node 20, msw 2' },
])('Jest 30 with React 19 and @testing-library/react on $versions', ({ app, node, versions }) => {
  let dir: string
  beforeAll(() => {
    dir = installApp(app, tarball)
    if (app !== 'jest-node24-msw3') for (const name of SOURCES) cpSync(join(APPS, 'jest-node24-msw3', name), join(dir, name), { recursive: true })
  })

  it('lists, creates and shows the error state over fetch and axios with the msw handlers, and seeds inside Jest', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'jest-cache-'))
    const cold = await jest(node(), dir, 'test', cache)
    // Jest writes its report to stderr.
    expect(cold.stderr).toMatch(/PASS src\/Pets\.test\.jsx/)
    expect(cold.stderr).toMatch(/Tests: +9 passed, 9 total/)
    const seedMs = Number(/fake\.seed\(1000\) took (\d+) ms/.exec(cold.stdout + cold.stderr)?.[1])
    const warm = await jest(node(), dir, 'test', cache)
    const jestTime = (result: Run) => /^Time: +([\d.]+ m?s)/m.exec(result.stderr)?.[1]
    console.log(`${versions}: the msw test file (9 tests) in ${jestTime(cold)} cold (npm test ${(cold.ms / 1000).toFixed(1)} s), ${jestTime(warm)} with Jest's cache (${(warm.ms / 1000).toFixed(1)} s); fake.seed(1000) ${seedMs} ms cold`)
    expect(seedMs).toBeGreaterThan(0)
  })

  it('runs the same component against `animals-mock serve -- jest`, with no transform of node_modules', async () => {
    const result = await jest(node(), dir, 'test:serve', mkdtempSync(join(tmpdir(), 'jest-cache-')))
    expect(result.stdout).toMatch(/^animals-mock listening on http:\/\/127\.0\.0\.1:\d+\/v1$/m)
    expect(result.stderr).toMatch(/PASS src\/Pets\.e2e\.jsx/)
    expect(result.stderr).toMatch(/Tests: +4 passed, 4 total/)
    expect(result.stdout).toContain('animals-mock stopped')
    console.log(`${versions}: the serve test file (4 tests) in ${/^Time: +([\d.]+ m?s)/m.exec(result.stderr)?.[1]} cold`)
  })
})
