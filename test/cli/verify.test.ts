import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { VERIFY_HELP, verify } from '../../src/cli/verify.js'
import { pactFilePath } from '../../src/contracts/pact-files.js'
import { createSite } from '../../src/site/site.js'
import { createFake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { closedPort } from '../support/deployments.js'
import { type InProcessOutcome, runInProcess } from '../support/in-process.js'

// `verify` in this process, up to the point where it hands the pacts to its worker: options,
// refusals and the checks of the deployment and the broker. test/cli/verify-deployments.test.ts runs
// the whole command as a process.

const KEY = 'LEAKCHECK-verify-in-process-3a1f'
const TOKEN = 'LEAKCHECK-broker-in-process-9c2e'

afterEach(() => {
  vi.restoreAllMocks()
})

let deployment: RunningServer
beforeAll(async () => {
  deployment = await startServer({ app: createSite({ api: createFake({ keys: [KEY] }) }) })
})
afterAll(() => deployment.close())

function run(args: readonly string[], env: NodeJS.ProcessEnv = { ANIMALS_MOCK_VERIFY_KEY: KEY }): Promise<InProcessOutcome> {
  return runInProcess(() => verify(args, env))
}

async function refusalOf(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const outcome = await run(args, env)
  expect(outcome.stdout).toBe('')
  expect(outcome.stderr).toBe('')
  if (outcome.refused === undefined) throw new Error(`not refused: ${JSON.stringify(args)}`)
  for (const secret of [KEY, TOKEN]) expect(outcome.refused).not.toContain(secret)
  return outcome.refused
}

it('shows its help with --help or -h, exit code 0, needing no key', async () => {
  for (const flag of ['--help', '-h']) {
    const outcome = await run([flag, '--timeout', 'not-read'], {})
    expect(outcome).toEqual({ code: 0, refused: undefined, stdout: VERIFY_HELP, stderr: '' })
  }
  expect(VERIFY_HELP).toMatch(/^Usage: animals-mock verify --base-url <url> \[options\]\n/)
  for (const option of [
    '--base-url <url>', '--pact <file|dir>', '--broker-url <url>', '--consumer-branch <b>', '--main-branch', '--deployed-or-released',
    '--consumer-version-selectors <json>', '--provider-version <v>', '--branch <name>', '--publish', '--timeout <ms>', '--run-id <id>',
    '--json <file>', '--junit <file>', '--verbose', '-h, --help', 'ANIMALS_MOCK_VERIFY_KEY', 'PACT_BROKER_TOKEN',
    'contracts/pacts/animals-frontend-animals-service.json', '(default 10000)',
  ]) {
    expect(VERIFY_HELP, option).toContain(option)
  }
  expect(VERIFY_HELP).toContain('Exit codes:\n  0  every interaction passed\n  1  an interaction failed')
})

it('refuses to start without a usable key, before the base URL is looked at', async () => {
  expect(await refusalOf(['--base-url', 'not a url'], {})).toBe(
    'ANIMALS_MOCK_VERIFY_KEY is not set: export the API key the deployment accepts (it is never read from the command line)',
  )
  expect(await refusalOf(['--base-url', deployment.url], { ANIMALS_MOCK_VERIFY_KEY: 'not usable' })).toBe(
    'ANIMALS_MOCK_VERIFY_KEY is not a usable bearer token: only letters, digits and - . _ ~ + / (then = padding)',
  )
})

it('refuses bad options in one line, the key and the token never shown even where the line quotes them', async () => {
  const env = { ANIMALS_MOCK_VERIFY_KEY: KEY, PACT_BROKER_TOKEN: TOKEN }
  expect(await refusalOf([], env)).toBe('--base-url is required, e.g. --base-url https://staging.example/v1')
  expect(await refusalOf(['--base-url', `${deployment.url}/v1`, '--timeout', KEY], env)).toBe(
    '--timeout must be milliseconds from 1 to 600000, not "[redacted]"',
  )
  expect(await refusalOf(['--base-url', `${deployment.url}/v1`, '--timeout', TOKEN], env)).toBe(
    '--timeout must be milliseconds from 1 to 600000, not "[redacted]"',
  )
  expect(await refusalOf([`--${KEY}`], env)).toBe('unknown option --[redacted] (animals-mock verify --help lists every option)')
  expect(await refusalOf(['--base-url', `${deployment.url}/v1`, '--run-id', 'a b'], env)).toBe(
    '--run-id may hold 1 to 64 letters, digits, dots, dashes and underscores',
  )
  expect(await refusalOf(['--base-url', `${deployment.url}/v1`, '--pact', '/nowhere/pact.json'], env)).toBe('no pact at /nowhere/pact.json')
  expect(await refusalOf(['--base-url', `${deployment.url}/v1`, '--branch', 'main'], env)).toBe(
    'selectors, --provider-version, --branch and --publish need --broker-url: they are about a broker',
  )
  expect(await refusalOf(['--base-url', `${deployment.url}/v1`, '--verbose=yes'], env)).toBe(
    "Option '--verbose' does not take an argument (animals-mock verify --help lists every option)",
  )
})

it('checks the deployment before anything else is sent: unreachable, a refused key, no /v1', async () => {
  const port = await closedPort()
  expect(await refusalOf(['--base-url', `http://127.0.0.1:${port}/v1`])).toBe(`cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)`)
  expect(await refusalOf(['--base-url', `${deployment.url}/v1`], { ANIMALS_MOCK_VERIFY_KEY: 'another-key' })).toBe(
    `${deployment.url}/v1 refused the key in ANIMALS_MOCK_VERIFY_KEY (401 on GET /pets)`,
  )
  expect(await refusalOf(['--base-url', deployment.url])).toBe(`GET ${deployment.url}/pets answered 404: is the base URL the API base with its /v1 prefix?`)
})

it('checks the broker after the deployment, sending the token, and an empty token not at all', async () => {
  const seen: IncomingHttpHeaders[] = []
  const broker = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(503).end()
  })
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(broker.address() as AddressInfo).port}`
  try {
    const args = ['--base-url', `${deployment.url}/v1`, '--broker-url', url]
    expect(await refusalOf(args, { ANIMALS_MOCK_VERIFY_KEY: KEY, PACT_BROKER_TOKEN: TOKEN })).toBe(`the Pact Broker at ${url} answered 503 to its index`)
    expect(await refusalOf(args, { ANIMALS_MOCK_VERIFY_KEY: KEY, PACT_BROKER_TOKEN: '' })).toBe(`the Pact Broker at ${url} answered 503 to its index`)
    expect(await refusalOf(args)).toBe(`the Pact Broker at ${url} answered 503 to its index`)
    expect(seen.map((headers) => headers.authorization)).toEqual([`Bearer ${TOKEN}`, undefined, undefined])
    const port = await closedPort()
    expect(await refusalOf(['--base-url', `${deployment.url}/v1`, '--broker-url', `http://127.0.0.1:${port}`])).toBe(
      `cannot reach the Pact Broker at http://127.0.0.1:${port}: connection refused (ECONNREFUSED)`,
    )
  } finally {
    await new Promise((resolve) => broker.close(resolve))
  }
})

it('ends a failure it did not foresee in one line that names the command: a pact that goes missing after the checks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'animals-verify-'))
  const pact = join(dir, 'pact.json')
  copyFileSync(pactFilePath(), pact)
  // A deployment that passes the key check, and the pact is gone by the time verify reads it again.
  const vanishing = createServer((_req, res) => {
    rmSync(pact)
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
  })
  await new Promise<void>((resolve) => vanishing.listen(0, '127.0.0.1', resolve))
  try {
    const baseUrl = `http://127.0.0.1:${(vanishing.address() as AddressInfo).port}/v1`
    expect(await refusalOf(['--base-url', baseUrl, '--pact', pact])).toBe(`verify could not run: ENOENT: no such file or directory, stat '${pact}'`)
  } finally {
    await new Promise((resolve) => vanishing.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  }
})
