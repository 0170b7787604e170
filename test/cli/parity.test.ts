import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { parity, PARITY_HELP } from '../../src/cli/parity.js'
import { createFake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { PARITY_PROBES } from '../../src/parity/probes.js'
import { PARALLEL_CREATIONS, PARITY_SCENARIOS } from '../../src/parity/scenarios.js'
import { type Handler, isDropped } from '../../src/service/http.js'
import { createSite } from '../../src/site/site.js'
import { runCli } from '../support/cli.js'
import { closedPort, createReportDir } from '../support/deployments.js'
import { type InProcessOutcome, runInProcess } from '../support/in-process.js'
import { PROVIDER_KEY, startVerifiableFake } from '../support/pact-verification.js'

// `parity` in this process: its options, refusals, and whole runs against deployments served here.
// test/cli/parity-deployments.test.ts runs it as a process.

const KEY = 'LEAKCHECK-parity-in-process-77e1'
const checks = (): number => PARITY_PROBES.length + PARITY_SCENARIOS.length

afterEach(() => {
  vi.restoreAllMocks()
})

// A deployment that differs from the fake only where the spec is open: no WWW-Authenticate on its 401s.
const withoutChallenge = (site: Handler): Handler => ({
  async handle(request) {
    const reply = await site.handle(request)
    if (isDropped(reply)) return reply
    const { 'www-authenticate': _challenge, ...headers } = reply.headers
    return { ...reply, headers }
  },
})

// A deployment that answers every creation 200 instead of 201: a contradiction of the spec.
const createdWith200 = (site: Handler): Handler => ({
  async handle(request) {
    const reply = await site.handle(request)
    if (isDropped(reply) || request.method !== 'POST' || reply.status !== 201) return reply
    return { ...reply, status: 200 }
  },
})

let alike: RunningServer
let open: RunningServer
let contradicting: RunningServer
beforeAll(async () => {
  ;[alike, open, contradicting] = await Promise.all([
    startServer({ app: createSite({ api: createFake({ keys: [KEY] }) }) }),
    startServer({ app: withoutChallenge(createSite({ api: createFake({ keys: [KEY] }) })) }),
    startServer({ app: createdWith200(createSite({ api: createFake({ keys: [KEY] }) })) }),
  ])
})
afterAll(() => Promise.all([alike.close(), open.close(), contradicting.close()]))

function run(args: readonly string[], env: NodeJS.ProcessEnv = { ANIMALS_MOCK_VERIFY_KEY: KEY }): Promise<InProcessOutcome> {
  return runInProcess(() => parity(args, env))
}

async function refusalOf(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const outcome = await run(args, env)
  expect(outcome.stdout).toBe('')
  if (outcome.refused === undefined) throw new Error(`not refused: ${JSON.stringify(args)}`)
  expect(outcome.refused).not.toContain(KEY)
  return outcome.refused
}

it('shows its help with --help or -h, exit code 0, needing no key', async () => {
  for (const flag of ['--help', '-h']) {
    expect(await run([flag, '--timeout', 'not-read'], {})).toEqual({ code: 0, refused: undefined, stdout: PARITY_HELP, stderr: '' })
  }
  expect(PARITY_HELP).toMatch(/^Usage: animals-mock parity --base-url <url> \[options\]\n/)
  expect(PARITY_HELP).toContain(`Sends the same ${PARITY_PROBES.length} probe requests`)
  expect(PARITY_HELP).toContain(`then ${PARITY_SCENARIOS.length} scenarios`)
  expect(PARITY_HELP).toContain(`under ${PARALLEL_CREATIONS} parallel creations`)
  for (const option of ['--base-url <url>', '--fake-url <url>', '--strict', '--timeout <ms>', '(default 10000)', '--run-id <id>', '--json <file>', '-h, --help', 'ANIMALS_MOCK_VERIFY_KEY']) {
    expect(PARITY_HELP, option).toContain(option)
  }
})

it('refuses bad options in one line, never showing the key even where the line quotes it', async () => {
  expect(await refusalOf(['--base-url', `${alike.url}/v1`], {})).toMatch(/^ANIMALS_MOCK_VERIFY_KEY is not set: /)
  expect(await refusalOf([])).toBe('--base-url is required, e.g. --base-url https://staging.example/v1')
  expect(await refusalOf(['--base-url', `${alike.url}/v1`, '--fake-url', 'fake.example/v1'])).toBe(
    '--fake-url must be an http or https URL such as https://staging.example/v1',
  )
  expect(await refusalOf(['--base-url', `${alike.url}/v1`, '--timeout', KEY])).toBe('--timeout must be milliseconds from 1 to 600000, not "[redacted]"')
  expect(await refusalOf(['--base-url', `${alike.url}/v1`, '--run-id', KEY.repeat(3)])).toBe(
    '--run-id may hold 1 to 64 letters, digits, dots, dashes and underscores',
  )
  expect(await refusalOf([`--base-url=${alike.url}/v1`, `--strict=${KEY}`])).toBe(
    "Option '--strict' does not take an argument (animals-mock parity --help lists every option)",
  )
  expect(await refusalOf(['--stritc'])).toBe('unknown option --stritc; did you mean --strict? (animals-mock parity --help lists every option)')
})

it('checks that the deployment and then the fake answer before it starts', async () => {
  const port = await closedPort()
  const unreachable = `http://127.0.0.1:${port}/v1`
  expect(await refusalOf(['--base-url', unreachable])).toBe(`cannot reach ${unreachable}: connection refused (ECONNREFUSED)`)
  expect(await refusalOf(['--base-url', `${alike.url}/v1`, '--fake-url', unreachable])).toBe(
    `the fake: cannot reach ${unreachable}: connection refused (ECONNREFUSED)`,
  )
  expect(await refusalOf(['--base-url', `${alike.url}/v1`], { ANIMALS_MOCK_VERIFY_KEY: 'other-key' })).toBe(
    `${alike.url}/v1 refused the key in ANIMALS_MOCK_VERIFY_KEY (401 on GET /pets)`,
  )
})

it('says it could not run when a side cannot be set up', async () => {
  // A deployment that lists animals but refuses to create any.
  const site = createSite({ api: createFake({ keys: [KEY], pets: [] }) })
  const refusing = await startServer({
    app: {
      handle: async (request) =>
        request.method === 'POST'
          ? { status: 503, headers: { 'content-type': 'application/json' }, body: '{"code":"unavailable","message":"Read only.","status":503}' }
          : site.handle(request),
    },
  })
  try {
    const outcome = await run(['--base-url', `${refusing.url}/v1`])
    expect(outcome.code).toBeUndefined()
    expect(outcome.refused).toBe(`could not set the deployment up (${refusing.url}/v1): 503 unavailable: Read only.`)
  } finally {
    await refusing.close()
  }
})

it('compares with a fake of its own, saying so, and passes when nothing differs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parity-in-process-'))
  const report = join(dir, 'reports', 'parity.json')
  const outcome = await run(['--base-url', `${alike.url}/v1/`, '--run-id', 'ci-9', '--json', report])
  expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
  const [first, second, third] = outcome.stdout.split('\n')
  expect(first).toMatch(new RegExp(`^animals-mock parity: the fake \\(in this process, default fixture, at http://127\\.0\\.0\\.1:[0-9]+/v1\\) against ${alike.url}/v1$`))
  expect(second).toBe('marker: the animals this run creates are named "Parity probe [animals-mock parity ci-9]"')
  expect(third).toBe('')
  expect(outcome.stdout).toContain(`no differences: the deployment answered all ${checks()} probes as the fake did`)
  const json = JSON.parse(readFileSync(report, 'utf8')) as Record<string, unknown>
  expect(json).toMatchObject({ command: 'parity', fake: 'in-process', deployment: `${alike.url}/v1`, marker: '[animals-mock parity ci-9]', strict: false, passed: true })
  expect(readFileSync(report, 'utf8').endsWith('}\n')).toBe(true)
  expect(outcome.stdout + outcome.stderr + readFileSync(report, 'utf8')).not.toContain(KEY)
})

it('passes open differences unless --strict, and fails on a contradiction of the spec', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parity-in-process-'))
  const lenient = await run(['--base-url', `${open.url}/v1`, '--fake-url', `${alike.url}/v1`, '--json', join(dir, 'lenient.json')])
  expect(lenient.code, lenient.stdout).toBe(0)
  expect(lenient.stdout.split('\n')[0]).toBe(`animals-mock parity: the fake at ${alike.url}/v1 against ${open.url}/v1`)
  expect(lenient.stdout).toMatch(/^open +list-no-key +header WWW-Authenticate +present +absent$/m)
  expect(JSON.parse(readFileSync(join(dir, 'lenient.json'), 'utf8'))).toMatchObject({ fake: `${alike.url}/v1`, strict: false, passed: true })
  const strict = await run(['--base-url', `${open.url}/v1`, '--fake-url', `${alike.url}/v1`, '--strict', '--json', join(dir, 'strict.json')])
  expect(strict.code).toBe(1)
  expect(JSON.parse(readFileSync(join(dir, 'strict.json'), 'utf8'))).toMatchObject({ strict: true, passed: false })
  const contradiction = await run(['--base-url', `${contradicting.url}/v1`, '--fake-url', `${alike.url}/v1`])
  expect(contradiction.code).toBe(1)
  expect(contradiction.stdout).toMatch(/^CONTRADICTS +create-with-status +status +201 +200$/m)
})

it('refuses in one line a JSON report it cannot write, before any request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parity-in-process-'))
  writeFileSync(join(dir, 'a-file'), '')
  const outcome = await run(['--base-url', `${alike.url}/v1`, '--fake-url', `${alike.url}/v1`, '--json', join(dir, 'a-file', 'p.json')])
  expect(outcome.refused).toBe(`cannot write the report ${join(dir, 'a-file', 'p.json')}: EEXIST: file already exists, mkdir '${join(dir, 'a-file')}'`)
  expect(outcome.stdout).toBe('')
})

describe('a deployment that fails unexpectedly', () => {
  const KEY = 'parity-unexpected-key'

  // A deployment whose new animals get an id no URL can hold: a string of one lone UTF-16
  // surrogate, which encodeURIComponent refuses when parity asks for the animal back.
  let broken: RunningServer
  beforeAll(async () => {
    const site = createSite({ api: createFake({ keys: [KEY] }) })
    broken = await startServer({
      app: {
        async handle(request) {
          const reply = await site.handle(request)
          if (isDropped(reply) || request.method !== 'POST' || reply.status !== 201 || typeof reply.body !== 'string') return reply
          return { ...reply, body: reply.body.replace(/"id":\d+/, '"id":"\\ud800"') }
        },
      },
    })
  })
  afterAll(() => broken.close())

  // What the line says after the command is the failure's own message ("URI malformed" today).
  it('ends a run it cannot go on with in one line that names the command', async () => {
    const outcome = await runInProcess(() => parity(['--base-url', `${broken.url}/v1`], { ANIMALS_MOCK_VERIFY_KEY: KEY }))
    expect(outcome.code).toBeUndefined()
    expect(outcome.refused).toMatch(/^parity could not run: [^\n]+$/)
  })
})

describe('a deployment that echoes the key', () => {
  // A deployment that echoes the caller's credential back, as a careless debug header might: the
  // parity report shows a Sunset header's value, so the key would reach its output.
  const echoingCredential = (site: Handler): Handler => ({
    async handle(request) {
      const reply = await site.handle(request)
      if (isDropped(reply) || reply.headers.sunset === undefined) return reply
      return { ...reply, headers: { ...reply.headers, sunset: request.headers.authorization ?? 'none' } }
    },
  })

  it('never prints or writes the key, even where the deployment echoes it back', async () => {
    const deployment = await startVerifiableFake({ wrap: echoingCredential })
    const reports = createReportDir()
    try {
      const run = await runCli(['parity', '--base-url', deployment.baseUrl, '--json', reports.path('p.json')], { ANIMALS_MOCK_VERIFY_KEY: PROVIDER_KEY })
      expect(run.stdout).toMatch(/header Sunset +.+ +Bearer \S+$/m)
      for (const text of [run.stdout, run.stderr, reports.read('p.json')]) expect(text).not.toContain(PROVIDER_KEY)
    } finally {
      reports.remove()
      await deployment.close()
    }
  })
})
