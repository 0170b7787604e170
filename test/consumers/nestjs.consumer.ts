import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { NPM, type Run, run } from './app-process.js'
import { APPS, installApp, installNode24, packInto } from './packing.js'

// A NestJS 11 backend-for-frontend as `nest new` makes it (CommonJS, Jest 30 with ts-jest and
// supertest), from the packed package: the docs/frontend.md NestJS section's three ways, on Node 24
// with msw 3 and on Node 20 with msw 2. The Node 20 app holds its versions and its CommonJS
// tsconfig (msw 2 has types for node10 resolution, msw 3 has none); its sources are the Node 24 app's.
let tarball: string
let node24: string

beforeAll(() => {
  tarball = packInto(mkdtempSync(join(tmpdir(), 'animals-pack-')))
  node24 = installNode24()
})

const SOURCES = ['src', 'test', 'tsconfig.json']

async function npmRun(node: string, dir: string, script: string): Promise<Run> {
  const result = await run(node, [NPM, 'run', script], dir)
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)
  return result
}

describe.each([
  { app: 'nestjs-node24-msw3', node: () => node24, versions: 'Node 24, msw 3' },
  { app: 'nestjs-node20-msw2', node: () => process.execPath, versions: 'Node 20, msw 2' },
])('NestJS 11 with Jest, ts-jest and supertest on $versions', ({ app, node, versions }) => {
  let dir: string
  beforeAll(() => {
    dir = installApp(app, tarball)
    if (app !== 'nestjs-node24-msw3') for (const name of SOURCES) cpSync(join(APPS, 'nestjs-node24-msw3', name), join(dir, name), { recursive: true })
  })

  it('type-checks createHandlers() into its own setupServer with no cast, under nodenext and under CommonJS with node10 resolution', async () => {
    await npmRun(node(), dir, 'typecheck')
  })

  it('runs its e2e tests over the msw handlers (loopback let through) and over animals-mock/node started in its hooks', async () => {
    const result = await npmRun(node(), dir, 'test:e2e')
    // Jest writes its report to stderr.
    expect(result.stderr).toMatch(/PASS test\/animals\.msw\.e2e-spec\.ts/)
    expect(result.stderr).toMatch(/PASS test\/animals\.node\.e2e-spec\.ts/)
    expect(result.stderr).toMatch(/Tests: +8 passed, 8 total/)
    console.log(`${versions}: NestJS e2e over msw and animals-mock/node (8 tests) in ${/^Time: +([\d.]+ m?s)/m.exec(result.stderr)?.[1]}`)
  })

  it('runs its e2e tests inside `animals-mock serve -- jest`, with ts-jest alone', async () => {
    const result = await npmRun(node(), dir, 'test:serve')
    expect(result.stderr).toMatch(/PASS test\/serve\/animals\.e2e-spec\.ts/)
    expect(result.stderr).toMatch(/Tests: +4 passed, 4 total/)
    expect(result.stdout).toContain('animals-mock stopped')
  })
})
