import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { VERIFY_HELP } from '../../src/cli/verify.js'
import { pactFilePath } from '../../src/contracts/pact-files.js'
import { runCli } from '../support/cli.js'
import {
  closedPort,
  createReportDir,
  driftOf,
  STAGING_KEY,
  type StagingStandIn,
  startStagingStandIn,
} from '../support/deployments.js'
import { PROVIDER_KEY, startVerifiableFake } from '../support/pact-verification.js'
import { startStandInBroker } from '../support/stand-in-broker.js'

const committed = JSON.parse(readFileSync(pactFilePath(), 'utf8')) as { interactions: { description: string; request: { path: string } }[] }
const BROKER_TOKEN = 'LEAKCHECK-broker-e25a70'

let staging: StagingStandIn
beforeAll(async () => {
  staging = await startStagingStandIn()
})
afterAll(() => staging.stop())

const verify = (args: readonly string[], env: Record<string, string> = { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY }) =>
  runCli(['verify', ...args], env)

async function animalsAfter(id: number): Promise<{ id: number; name: string }[]> {
  const response = await fetch(`${staging.baseUrl}/pets?limit=100`, { headers: { authorization: `Bearer ${STAGING_KEY}` } })
  return ((await response.json()) as { id: number; name: string }[]).filter((pet) => pet.id > id)
}

function expectNoSecrets(texts: Record<string, string>, secrets: readonly string[]): void {
  for (const [where, text] of Object.entries(texts)) {
    for (const secret of secrets) expect(text, `${secret} in ${where}`).not.toContain(secret)
  }
}

/** The lines of the report under an interaction's FAIL line, up to the next interaction. */
function failureBlock(stdout: string, heading: string): string {
  const lines = stdout.split('\n')
  const start = lines.indexOf(`FAIL  ${heading}`)
  if (start === -1) return ''
  const end = lines.findIndex((line, index) => index > start && /^(PASS|FAIL) /.test(line))
  return lines.slice(start, end === -1 ? undefined : end).join('\n')
}

it('verifies the staging stand-in green at its /v1 base, reporting every interaction, and never shows the key', async () => {
  const before = Math.max(0, ...(await animalsAfter(0)).map((pet) => pet.id))
  const reports = createReportDir()
  try {
    // The JUnit report goes to a directory that does not exist yet, as in a fresh CI workspace.
    const run = await verify(['--base-url', staging.baseUrl, '--run-id', 'ci-42', '--json', reports.path('r.json'), '--junit', reports.path('ci/junit/r.xml')])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stderr).toBe('')
    for (const { description } of committed.interactions) expect(run.stdout).toMatch(new RegExp(`^PASS  ${description}( \\[given .+\\])?$`, 'm'))
    expect(run.stdout).toContain(`${committed.interactions.length} interactions: ${committed.interactions.length} passed, 0 failed`)
    expect(run.stdout).toContain('[animals-mock verify ci-42]')
    // Every interaction on the deprecated getPet gets one warning, and the run stays green.
    const getPet = committed.interactions.filter((each) => /^\/pets\/[^/]+$/.test(each.request.path)).map((each) => each.description)
    expect(getPet).toHaveLength(4)
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('WARN  '))
    expect(warnings).toEqual(
      getPet.map((description) => `WARN  "${description}" calls GET /pets/{petId} (getPet), deprecated and to be removed on 2030-12-05; use GET /pets with the status filter instead (spec 4.3, 9.2)`),
    )

    const json = JSON.parse(reports.read('r.json')) as { passed: boolean; summary: unknown; interactions: { description: string; providerStates: string[]; result: string }[] }
    // The report names the run: the command, the deployment, the marker and the pacts, as the first lines of stdout do.
    expect(json).toMatchObject({
      command: 'verify',
      baseUrl: staging.baseUrl,
      marker: '[animals-mock verify ci-42]',
      pacts: `${committed.interactions.length} interactions of contracts/pacts/animals-frontend-animals-service.json`,
    })
    expect(run.stdout).toContain(`animals-mock verify: ${committed.interactions.length} interactions of contracts/pacts/animals-frontend-animals-service.json against ${staging.baseUrl}\n`)
    expect(json.passed).toBe(true)
    expect(json.summary).toEqual({ interactions: committed.interactions.length, passed: committed.interactions.length, failed: 0 })
    expect(json.interactions.find((each) => each.description === 'a request to get an animal')?.providerStates).toEqual(['an animal exists'])
    expect((JSON.parse(reports.read('r.json')) as { warnings: { description: string }[] }).warnings.map((each) => each.description).sort()).toEqual([...getPet].sort())
    const xml = reports.read('ci/junit/r.xml')
    expect(xml).toContain(`<testsuites name="animals-mock verify" tests="${committed.interactions.length}" failures="0" errors="0">`)
    expect(xml.match(/<testcase /g)).toHaveLength(committed.interactions.length)
    expect(xml.match(/<system-out>WARNING: &quot;a request to get an animal[^<]*removed on 2030-12-05/g)).toHaveLength(4)

    // Provider states and the pact's own POSTs create animals the service cannot delete: all marked.
    const created = await animalsAfter(before)
    expect(created.length).toBeGreaterThan(0)
    for (const pet of created) expect(pet.name).toMatch(/ \[animals-mock verify ci-42\]$/)
    expectNoSecrets({ stdout: run.stdout, stderr: run.stderr, json: reports.read('r.json'), junit: xml }, [STAGING_KEY])
  } finally {
    reports.remove()
  }
})

const DRIFTS = [
  {
    rule: 'createPet answers 200 instead of 201',
    failing: 'a request to add an animal with a status',
    says: 'status: expected 201 but was 200',
    lead: 'the deployment answered 200 where the pact expects 201 (spec 4.2: "201 | Pet (includes the assigned `id`) | Animal added")',
  },
  {
    rule: 'listPets defaults to a limit of 10',
    failing: 'a request to list animals with the default limit [given animals exist]',
    says: '(size 10) to have minimum size of 20',
    lead: 'the deployment listed 10 animals where the pact expects at least 20 (spec 4.1: "limit | integer | no | minimum 1, maximum 100, default 20 | Maximum number of animals returned")',
  },
  {
    rule: 'createPet drops the status sent',
    failing: 'a request to add an animal with a status',
    says: 'body $: Actual map is missing the following keys: status',
    lead: 'the body at $ lacks status, which the pact expects (spec 2: "status | PetStatus | - | no | Availability status; no default is stated")',
  },
  {
    rule: 'Error bodies lack status',
    failing: 'a request to add an animal without a name',
    says: 'body $: Actual map is missing the following keys: status',
    lead: 'the body at $ lacks status, which the pact expects (spec 7: "Every error response carries the Error body (`code`, `message`, `status`); `status` repeats the HTTP status code.")',
  },
  {
    rule: 'the key is not checked',
    failing: 'a request to list animals without a key',
    says: 'status: expected 401 but was 200',
    lead: 'the deployment answered 200 where the pact expects 401 (spec 7: "When a request carries no valid bearer key, then the response is 401.")',
  },
] as const

for (const drift of DRIFTS) {
  it.concurrent(`exits 1 naming the interaction and the difference when the deployment drifts: ${drift.rule}`, async ({ expect }) => {
    const provider = await startVerifiableFake({ wrap: driftOf(drift.rule) })
    try {
      const run = await verify(['--base-url', provider.baseUrl], { ANIMALS_MOCK_VERIFY_KEY: PROVIDER_KEY })
      expect(run.code, run.stdout + run.stderr).toBe(1)
      expect(run.stderr).toBe('')
      const block = failureBlock(run.stdout, drift.failing)
      expect(block, run.stdout).toContain(drift.says)
      // The project's own line comes first, before Pact's detail.
      expect(block.split('\n')[1], run.stdout).toMatch(/^ {6}→ /)
      expect(block.split('\n')[1]).toContain(drift.lead)
      expect(run.stdout).toMatch(/\n── summary: FAILED ──\n\d+ interactions: \d+ passed, [1-9]\d* failed; 0 problem\(s\) outside them; \d+ deprecation warning\(s\)\nslowest: .+ \d+ ms.*\nreports: none written \(--json, --junit\)\n$/)
      expect(run.stdout).not.toContain(PROVIDER_KEY)
    } finally {
      await provider.close()
    }
  })
}

it('shows expected against actual for a failure in the JSON and JUnit reports, escaped', async () => {
  const provider = await startVerifiableFake({ wrap: driftOf('createPet drops the status sent') })
  const reports = createReportDir()
  try {
    const run = await verify(['--base-url', provider.baseUrl, '--json', reports.path('r.json'), '--junit', reports.path('r.xml')], {
      ANIMALS_MOCK_VERIFY_KEY: PROVIDER_KEY,
    })
    expect(run.code).toBe(1)
    const json = JSON.parse(reports.read('r.json')) as { passed: boolean; interactions: { description: string; result: string; mismatches: unknown[] }[] }
    expect(json.passed).toBe(false)
    const failed = json.interactions.filter((each) => each.result === 'failed')
    expect(failed.map((each) => each.description)).toEqual(['a request to add an animal with a status'])
    expect(failed[0]?.mismatches).toEqual([
      { kind: 'body', key: '$', message: 'Actual map is missing the following keys: status', expected: '["categoryId","id","name","status"]', actual: '["categoryId","id","name"]' },
    ])
    const xml = reports.read('r.xml')
    expect(xml).toContain('failures="1"')
    expect(xml).toContain('<failure message="the body at $ lacks status, which the pact expects (spec 2: &quot;status | PetStatus | - | no | Availability status; no default is stated&quot;)" type="body mismatch">')
    // Every case has a time, a failed one included.
    const cases = xml.match(/<testcase [^>]*>/g) ?? []
    expect(cases.length).toBe(committed.interactions.length)
    for (const each of cases) expect(each).toMatch(/ time="\d+\.\d{3}"/)
    expect(run.stdout).toContain(`\nreports: JSON ${reports.path('r.json')}; JUnit ${reports.path('r.xml')}\n`)
    expect(xml).toContain('expected: [&quot;categoryId&quot;,&quot;id&quot;,&quot;name&quot;,&quot;status&quot;]')
  } finally {
    reports.remove()
    await provider.close()
  }
})

it('refuses a report path it cannot write before sending any request: exit 2, one line', async () => {
  let requests = 0
  const counting = createServer((_request, response) => {
    requests += 1
    response.writeHead(500).end()
  })
  await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve))
  const reports = createReportDir()
  try {
    const baseUrl = `http://127.0.0.1:${(counting.address() as AddressInfo).port}/v1`
    const file = reports.path('a-file')
    writeFileSync(file, '')
    for (const flag of ['--junit', '--json']) {
      const run = await verify(['--base-url', baseUrl, flag, join(file, 'report.out')])
      expect(run.code).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(new RegExp(`^animals-mock: cannot write the report ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/report\.out: (ENOTDIR|EEXIST)[^\n]*\n$`))
    }
    // A folder where the file should be is refused too.
    expect((await verify(['--base-url', baseUrl, '--json', reports.path('')])).code).toBe(2)
    expect(requests).toBe(0)
    // A report that can be written is checked and left as it was: not made when the run then stops.
    const refused = await verify(['--base-url', `http://127.0.0.1:${await closedPort()}/v1`, '--json', reports.path('new/r.json')])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^animals-mock: cannot reach /)
    expect(existsSync(reports.path('new/r.json'))).toBe(false)
  } finally {
    reports.remove()
    await new Promise((resolve) => counting.close(resolve))
  }
})

it('gives up on a request after --timeout and names the request that got no answer', async () => {
  const provider = await startVerifiableFake()
  provider.fake.force({ method: 'POST', path: '/pets', delayMs: 10_000 })
  try {
    const run = await verify(['--base-url', provider.baseUrl, '--timeout', '300'], { ANIMALS_MOCK_VERIFY_KEY: PROVIDER_KEY })
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(failureBlock(run.stdout, 'a request to add an animal with a status')).toContain(
      `error: no answer from ${provider.baseUrl}/pets within 300 ms`,
    )
    expect(failureBlock(run.stdout, 'a request to get an animal [given an animal exists]')).toContain(
      'state: provider state "an animal exists" could not be set up: no answer within 300 ms',
    )
  } finally {
    await provider.close()
  }
})

it('fetches the pacts from a Pact Broker by consumer version selectors and publishes the results, the token going to the broker only', async () => {
  const broker = await startStandInBroker()
  const reports = createReportDir()
  try {
    const run = await verify(
      [
        '--base-url', staging.baseUrl,
        '--broker-url', broker.url,
        '--consumer-version-selectors', '[{"deployedOrReleased":true}]',
        '--consumer-branch', 'main',
        '--publish', '--provider-version', '1.2.3', '--branch', 'main',
        '--json', reports.path('r.json'),
      ],
      { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY, PACT_BROKER_TOKEN: BROKER_TOKEN },
    )
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(`${committed.interactions.length} interactions: ${committed.interactions.length} passed, 0 failed`)
    expect(run.stdout).toContain(`published the results to ${broker.url} as animals-service 1.2.3 on branch main`)
    // Asked twice with the same selectors: by the verifier, and by verify for the deprecation warnings.
    const asked = { consumerVersionSelectors: [{ deployedOrReleased: true }, { branch: 'main' }], providerVersionBranch: 'main', includePendingStatus: false }
    expect(broker.forVerification()).toEqual([asked, asked])
    expect(run.stdout.match(/^WARN {2}"a request to get an animal/gm)).toHaveLength(4)
    expect(broker.published()).toMatchObject([{ success: true, providerApplicationVersion: '1.2.3' }])
    expect(broker.requests.map((each) => `${each.method} ${each.path}`)).toContain('PUT /pacticipants/animals-service/branches/main/versions/1.2.3')
    for (const request of broker.requests) expect(request.authorization).toBe(`Bearer ${BROKER_TOKEN}`)
    expectNoSecrets({ stdout: run.stdout, stderr: run.stderr, json: reports.read('r.json') }, [STAGING_KEY, BROKER_TOKEN])
    expectNoSecrets({ 'broker requests': broker.requests.map((each) => each.body).join('\n') }, [STAGING_KEY])
  } finally {
    reports.remove()
    await broker.close()
  }
})

it('keeps the broker token out of what it prints, even when the broker puts it in the links it answers', async () => {
  const broker = await startStandInBroker({ failPactFetch: true })
  try {
    const run = await verify(['--base-url', staging.baseUrl, '--broker-url', broker.url, '--consumer-branch', 'main', '--verbose'], {
      ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY,
      PACT_BROKER_TOKEN: BROKER_TOKEN,
    })
    expect(run.code, run.stdout + run.stderr).toBe(2)
    // The link, token and all, is named in what is printed: only as [redacted].
    expect(run.stderr).toContain('?access_token=[redacted] answered 500')
    expectNoSecrets({ stdout: run.stdout, stderr: run.stderr }, [STAGING_KEY, BROKER_TOKEN])
  } finally {
    await broker.close()
  }
})

it('fails when a pact cannot be loaded, though every interaction it could load passed', async () => {
  const dir = createReportDir()
  try {
    writeFileSync(dir.path('animals.json'), readFileSync(pactFilePath(), 'utf8'))
    writeFileSync(dir.path('broken.json'), '{"consumer":{"name":"broken"},"provider":{"name":"animals-service"},"interactions":')
    const run = await verify(['--base-url', staging.baseUrl, '--pact', dir.path(''), '--json', dir.path('r.json')])
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.stdout).toMatch(/^ERROR Failed to load pact/m)
    expect(run.stdout).toContain(`${committed.interactions.length} interactions: ${committed.interactions.length} passed, 0 failed; 1 problem outside them`)
    expect((JSON.parse(dir.read('r.json')) as { passed: boolean }).passed).toBe(false)
  } finally {
    dir.remove()
  }
})

it('exits 2 with one line when the deployment cannot be reached', async () => {
  const port = await closedPort()
  const run = await verify(['--base-url', `http://127.0.0.1:${port}/v1`])
  expect(run.code).toBe(2)
  expect(run.stdout).toBe('')
  expect(run.stderr).toBe(`animals-mock: cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)\n`)
})

it('exits 2 with one line, the key never shown, for a bad URL, a missing key, a refused key or a base without /v1', async () => {
  const origin = staging.baseUrl.slice(0, -'/v1'.length)
  const cases = [
    { args: ['--base-url', 'staging.example/v1'], env: { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY }, says: '--base-url must be an http or https URL' },
    { args: ['--base-url', 'ftp://staging.example/v1'], env: { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY }, says: '--base-url must be an http or https URL, not ftp:' },
    { args: ['--base-url', `http://user:${STAGING_KEY}@127.0.0.1/v1`], env: { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY }, says: 'must not carry credentials' },
    { args: ['--base-url', staging.baseUrl], env: {}, says: 'ANIMALS_MOCK_VERIFY_KEY is not set' },
    { args: ['--base-url', staging.baseUrl], env: { ANIMALS_MOCK_VERIFY_KEY: 'LEAKCHECK-refused-1c2d' }, says: 'refused the key in ANIMALS_MOCK_VERIFY_KEY (401 on GET /pets)' },
    { args: ['--base-url', origin], env: { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY }, says: 'is the base URL the API base with its /v1 prefix?' },
    { args: ['--base-url', staging.baseUrl, '--pact', '/nowhere/pact.json'], env: { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY }, says: 'no pact at /nowhere/pact.json' },
    { args: ['--base-url', staging.baseUrl, '--broker-url', 'http://127.0.0.1:1', '--publish'], env: { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY }, says: '--publish needs --provider-version and --branch' },
  ]
  for (const each of cases) {
    const run = await verify(each.args, each.env)
    expect(run.code, each.says).toBe(2)
    expect(run.stderr).toContain(each.says)
    expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1)
    expectNoSecrets({ stdout: run.stdout, stderr: run.stderr }, [STAGING_KEY, 'LEAKCHECK-refused-1c2d'])
  }
})

it('exits 2 with one line when the Pact Broker cannot be reached', async () => {
  const port = await closedPort()
  const run = await verify(['--base-url', staging.baseUrl, '--broker-url', `http://127.0.0.1:${port}`, '--consumer-branch', 'main'], {
    ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY,
    PACT_BROKER_TOKEN: BROKER_TOKEN,
  })
  expect(run.code).toBe(2)
  expect(run.stderr).toBe(`animals-mock: cannot reach the Pact Broker at http://127.0.0.1:${port}: connection refused (ECONNREFUSED)\n`)
})

it('exits 2 naming the reason when the broker refuses the results, though every interaction passed', async () => {
  const broker = await startStandInBroker({ refusePublishing: true })
  try {
    const run = await verify(
      ['--base-url', staging.baseUrl, '--broker-url', broker.url, '--consumer-branch', 'main', '--publish', '--provider-version', '1.2.3', '--branch', 'main'],
      { ANIMALS_MOCK_VERIFY_KEY: STAGING_KEY, PACT_BROKER_TOKEN: BROKER_TOKEN },
    )
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(run.stdout).toContain(`${committed.interactions.length} interactions: ${committed.interactions.length} passed, 0 failed`)
    expect(run.stdout).not.toContain('published the results')
    expect(run.stderr).toMatch(new RegExp(`^animals-mock: could not publish the results to ${broker.url}: IO Error - [^\\n]*403 Forbidden[^\\n]*\\n$`))
    expectNoSecrets({ stdout: run.stdout, stderr: run.stderr }, [STAGING_KEY, BROKER_TOKEN])
  } finally {
    await broker.close()
  }
})

it('exits 2 in one line when the pacts given hold no interaction at all', async () => {
  const dir = createReportDir()
  try {
    const run = await verify(['--base-url', staging.baseUrl, '--pact', dir.path(''), '--run-id', 'empty-1'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe(
      `animals-mock verify: the pacts in ${dir.path('')} against ${staging.baseUrl}\nmarker: the animals this run creates are named "<name> [animals-mock verify empty-1]"\n\n`,
    )
    expect(run.stderr).toBe('animals-mock: verification could not run: the pacts hold no interactions\n')
  } finally {
    dir.remove()
  }
})

it("prints Pact's own report on stderr with --verbose, and only then", async () => {
  const dir = createReportDir()
  try {
    const pact = {
      consumer: { name: 'one-off' },
      provider: { name: 'animals-service' },
      interactions: [{ description: 'a list without a key', request: { method: 'GET', path: '/pets' }, response: { status: 200 } }],
      metadata: { pactSpecification: { version: '2.0.0' } },
    }
    writeFileSync(dir.path('one-off.json'), JSON.stringify(pact))
    const args = ['--base-url', staging.baseUrl, '--pact', dir.path('one-off.json')]
    const verbose = await verify([...args, '--verbose'])
    expect(verbose.code).toBe(1)
    expect(verbose.stdout).toContain(`animals-mock verify: 1 interactions of ${dir.path('one-off.json')} against ${staging.baseUrl}\n`)
    expect(verbose.stdout).toContain('FAIL  a list without a key\n      → the deployment answered 401 where the pact expects 200\n        status: expected 200 but was 401\n')
    expect(verbose.stderr).toContain('Verifying a pact between')
    const quiet = await verify(args)
    expect(quiet.code).toBe(1)
    expect(quiet.stderr).toBe('')
  } finally {
    dir.remove()
  }
})

it('shows its help from the binary, exit code 0, needing no key', async () => {
  const run = await verify(['--help'], {})
  expect(run.code).toBe(0)
  expect(run.stderr).toBe('')
  expect(run.stdout).toMatch(/^Usage: animals-mock verify --base-url <url> \[options\]\n/)
  expect(run.stdout).toContain('Exit codes:\n  0  every interaction passed\n')
  expect(run.stdout).toBe(VERIFY_HELP)
})

/** A pact of one interaction that needs no provider state. */
function writeOneRequestPact(path: string, interaction: Record<string, unknown> = {}): void {
  const pact = {
    consumer: { name: 'one-off' },
    provider: { name: 'animals-service' },
    interactions: [{ description: 'a list', request: { method: 'GET', path: '/pets' }, response: { status: 200 }, ...interaction }],
    metadata: { pactSpecification: { version: '2.0.0' } },
  }
  writeFileSync(path, JSON.stringify(pact))
}

/** A deployment that passes verify's key check, then drops every connection, or stops listening. */
async function startVanishingDeployment(then: 'drop' | 'stop'): Promise<{ readonly baseUrl: string; close(): Promise<void> }> {
  let checked = false
  const server = createServer((req, res) => {
    if (checked) {
      req.socket.destroy()
      return
    }
    checked = true
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]', () => {
      if (then === 'stop') {
        server.close()
        server.closeAllConnections()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

// The verifier's request through pact-js's proxy then gets no answer: a run that waited for it
// would take this long.
const UNANSWERED_MS = 30_000

it('exits 2 at once saying the verifier stopped when the deployment drops a connection in the middle of the run', async () => {
  const deployment = await startVanishingDeployment('drop')
  const dir = createReportDir()
  try {
    writeOneRequestPact(dir.path('one.json'))
    const started = Date.now()
    const run = await verify(['--base-url', deployment.baseUrl, '--pact', dir.path('one.json'), '--timeout', String(UNANSWERED_MS)])
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(run.stderr).toBe('animals-mock: verification could not run: the verifier stopped: socket hang up (ECONNRESET)\n')
    expect(run.stdout).not.toMatch(/^FAIL/m)
    expect(Date.now() - started).toBeLessThan(UNANSWERED_MS - 10_000)
  } finally {
    dir.remove()
    await deployment.close()
  }
})

it('exits 2 saying the verifier stopped when the deployment stops listening in the middle of the run, the code not repeated', async () => {
  const deployment = await startVanishingDeployment('stop')
  const dir = createReportDir()
  try {
    writeOneRequestPact(dir.path('one.json'))
    const run = await verify(['--base-url', deployment.baseUrl, '--pact', dir.path('one.json'), '--timeout', String(UNANSWERED_MS)])
    expect(run.code, run.stdout + run.stderr).toBe(2)
    const address = new URL(deployment.baseUrl).host
    expect(run.stderr).toBe(`animals-mock: verification could not run: the verifier stopped: connect ECONNREFUSED ${address}\n`)
  } finally {
    dir.remove()
    await deployment.close()
  }
})

it('exits 1 when an interaction the pact marks pending fails: pending or not, every interaction must pass', async () => {
  const dir = createReportDir()
  try {
    const pact = {
      consumer: { name: 'one-off' },
      provider: { name: 'animals-service' },
      interactions: [
        { type: 'Synchronous/HTTP', key: 'pending-1', description: 'a pending list without a key', pending: true, request: { method: 'GET', path: '/pets' }, response: { status: 200 } },
      ],
      metadata: { pactSpecification: { version: '4.0' } },
    }
    writeFileSync(dir.path('pending.json'), JSON.stringify(pact))
    const run = await verify(['--base-url', staging.baseUrl, '--pact', dir.path('pending.json'), '--json', dir.path('r.json')])
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.stdout).toContain('FAIL  a pending list without a key\n      → the deployment answered 401 where the pact expects 200\n        status: expected 200 but was 401\n')
    expect(run.stdout).toContain('1 interactions: 0 passed, 1 failed')
    expect((JSON.parse(dir.read('r.json')) as { passed: boolean }).passed).toBe(false)
  } finally {
    dir.remove()
  }
})

it('exits 2 in one line when the reason it was given spans lines: a pact directory whose name holds a line break', async () => {
  const dir = createReportDir()
  try {
    const pacts = dir.path('pacts \n(copy)')
    mkdirSync(pacts)
    writeFileSync(join(pacts, 'broken.json'), '{"consumer":{"name":"broken"},"provider":{"name":"animals-service"},"interactions":')
    const run = await verify(['--base-url', staging.baseUrl, '--pact', pacts])
    expect(run.code, run.stdout + run.stderr).toBe(2)
    // The first line of the verifier's reason, trimmed.
    expect(run.stderr).toBe(`animals-mock: verification could not run: Failed to load pact: Failed to load pact from '${dir.path('pacts')}\n`)
  } finally {
    dir.remove()
  }
})
