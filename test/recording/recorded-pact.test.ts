import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SwaggerMockValidatorFactory } from '@pactflow/swagger-mock-validator'
import { beforeAll, describe, expect, it } from 'vitest'
import { OPENAPI_FILE } from '../../src/contracts/openapi.js'
import { runCli } from '../support/cli.js'
import { type Drift, startIndependentService } from '../support/independent-service/service.js'

// The example app (examples/consumer-app) runs its own vitest suite against the msw handlers with
// `recordPact`; what it records must be a contract a real provider can be verified against.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const KEY = 'recorded-pact-key-5e1b'
let file = ''
let firstRun = { status: 0 as number | null, stderr: '' }

function runExampleSuite(dir: string): { status: number | null; stderr: string } {
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
  const result = spawnSync(process.execPath, [vitest, 'run', '--config', 'examples/consumer-app/vitest.config.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, PACT_DIR: dir, NO_COLOR: '1' },
    timeout: 60_000,
  })
  return { status: result.status, stderr: result.stderr }
}

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'recorded-pact-'))
  firstRun = runExampleSuite(dir)
  file = join(dir, 'shop-frontend-animals-service.json')
})

const interactions = (): { description: string; request: { headers?: Record<string, string[]> } }[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as { interactions: { description: string; request: { headers?: Record<string, string[]> } }[] }).interactions

it('records the app tests as one interaction per shape, with a warning for what the spec does not promise', () => {
  expect(firstRun.status, firstRun.stderr).toBe(0)
  expect(interactions().map((interaction) => interaction.description)).toEqual([
    'a request to add an animal with status available',
    'a request to add an animal without a categoryId',
    'a request to get an animal',
    'a request to get an animal that does not exist',
    'a request to list animals with an invalid key',
    'a request to list animals with the default limit',
    'a request to list available animals with limit 10',
  ])
  // The Prefer: code=503 test is a test's choice: listed, never a contract.
  expect(firstRun.stderr).toContain('GET /v1/pets: a forced answer (a Prefer header or a forced rule)')
})

it('writes no key: the placeholder the verifier replaces, or a literal invalid one', () => {
  const text = readFileSync(file, 'utf8')
  expect(text).not.toContain('any-key')
  const keys = interactions().flatMap((interaction) => interaction.request.headers?.Authorization ?? [])
  expect(new Set(keys)).toEqual(new Set(['Bearer pact-placeholder-api-key', 'Bearer not-a-valid-key']))
})

it('writes the same bytes when the suite runs again', () => {
  const before = readFileSync(file, 'utf8')
  const again = runExampleSuite(join(file, '..'))
  expect(again.status, again.stderr).toBe(0)
  expect(readFileSync(file, 'utf8')).toBe(before)
})

it('agrees with contracts/openapi.yaml (swagger-mock-validator, strict)', async () => {
  const outcome = await SwaggerMockValidatorFactory.create().validate({
    specPathOrUrl: OPENAPI_FILE,
    mockPathOrUrl: file,
    additionalPropertiesInResponse: 'false',
    requiredPropertiesInResponse: 'true',
  })
  expect([...outcome.errors, ...outcome.warnings].map((each) => `${each.mockDetails.interactionDescription}: ${each.message}`)).toEqual([])
  expect(outcome.success).toBe(true)
})

const verify = (baseUrl: string) => runCli(['verify', '--base-url', baseUrl, '--pact', file, '--timeout', '3000'], { ANIMALS_MOCK_VERIFY_KEY: KEY })

it('verifies against the fake served by the CLI', async () => {
  const { spawnCli, waitForBaseUrl } = await import('../support/cli.js')
  const fake = spawnCli(['serve', '--port', '0', '--api-key', KEY, '--quiet'])
  try {
    const verified = await verify(await waitForBaseUrl(fake))
    expect(verified.code, verified.stdout + verified.stderr).toBe(0)
    expect(verified.stdout).toContain('7 interactions: 7 passed, 0 failed')
  } finally {
    fake.child.kill('SIGKILL')
  }
})

async function verifyAgainstIndependent(drift?: Drift) {
  const service = await startIndependentService({ keys: [KEY], seeded: 30, ...(drift === undefined ? {} : { drift }) })
  try {
    return await verify(service.baseUrl)
  } finally {
    await service.close()
  }
}

it('verifies against an independent implementation that chooses otherwise where the spec is open', async () => {
  const verified = await verifyAgainstIndependent()
  expect(verified.code, verified.stdout + verified.stderr).toBe(0)
})

describe.concurrent('fails against services that break what the app used', () => {
  const BROKEN: readonly [Drift, RegExp][] = [
    ['default limit is 10', /^FAIL  a request to list animals with the default limit/m],
    ['the status filter is ignored', /^FAIL  a request to list available animals with limit 10/m],
    ['createPet answers 200', /^FAIL  a request to add an animal with status available$/m],
    ['the created animal loses its status', /^FAIL  a request to add an animal with status available$/m],
    ['an unknown id is found', /^FAIL  a request to get an animal that does not exist/m],
    ['ids are strings', /^FAIL  a request to get an animal \[/m],
    ['the key is not checked', /^FAIL  a request to list animals with an invalid key$/m],
    ['Error status differs from HTTP status', /^FAIL  a request to list animals with an invalid key$/m],
  ]
  for (const [drift, names] of BROKEN) {
    it(`when ${drift}`, async ({ expect }) => {
      const verified = await verifyAgainstIndependent(drift)
      expect(verified.code, verified.stdout).toBe(1)
      expect(verified.stdout).toMatch(names)
    })
  }
})

