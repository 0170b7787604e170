import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Handler, isDropped } from '../../src/service/http.js'
import { PARITY_PROBES } from '../../src/parity/probes.js'
import { PARITY_SCENARIOS } from '../../src/parity/scenarios.js'
import { runCli } from '../support/cli.js'
import { closedPort, createReportDir, driftOf, STAGING_KEY, type StagingStandIn, startStagingStandIn } from '../support/deployments.js'
import { PROVIDER_KEY, startVerifiableFake } from '../support/pact-verification.js'

let staging: StagingStandIn
beforeAll(async () => {
  staging = await startStagingStandIn()
})
afterAll(() => staging.stop())

const parity = (args: readonly string[], key: string) => runCli(['parity', ...args], { ANIMALS_MOCK_VERIFY_KEY: key })

const checks = (): number => PARITY_PROBES.length + PARITY_SCENARIOS.length

// A deployment that differs only where the spec is open: no WWW-Authenticate on its 401s.
const withoutChallenge = (site: Handler): Handler => ({
  async handle(request) {
    const reply = await site.handle(request)
    if (isDropped(reply)) return reply
    const { 'www-authenticate': _challenge, ...headers } = reply.headers
    return { ...reply, headers }
  },
})

it('finds no difference between the fake and the staging stand-in, and marks the animals it creates', async () => {
  const reports = createReportDir()
  try {
    const run = await parity(['--base-url', staging.baseUrl, '--run-id', 'ci-7', '--json', reports.path('p.json')], STAGING_KEY)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain(`no differences: the deployment answered all ${checks()} probes as the fake did`)
    const json = JSON.parse(reports.read('p.json')) as { passed: boolean; summary: { probes: number; alike: number }; findings: unknown[] }
    expect(json).toMatchObject({ passed: true, summary: { probes: checks(), alike: checks() }, findings: [] })

    const response = await fetch(`${staging.baseUrl}/pets?limit=100`, { headers: { authorization: `Bearer ${STAGING_KEY}` } })
    const names = ((await response.json()) as { name: string }[]).map((pet) => pet.name)
    expect(names).toContain('Parity probe [animals-mock parity ci-7]')
    for (const text of [run.stdout, run.stderr, reports.read('p.json')]) expect(text).not.toContain(STAGING_KEY)
  } finally {
    reports.remove()
  }
})

// The fake announcing the right year but not the right day for the removal (spec 9.2).
const sunsetOn = (date: string) => (site: Handler): Handler => ({
  async handle(request) {
    const reply = await site.handle(request)
    if (isDropped(reply) || !('sunset' in reply.headers)) return reply
    return { ...reply, headers: { ...reply.headers, sunset: date } }
  },
})

const DRIFTS = [
  { rule: 'createPet answers 200 instead of 201', row: /^CONTRADICTS +create-with-status +status +201 +200$/m },
  { rule: 'listPets defaults to a limit of 10', row: /^CONTRADICTS +list-default +count +20 animals +10 animals$/m },
  { rule: 'Error bodies lack status', row: /^CONTRADICTS +create-without-name +body +\$\.status: integer +\$\.status: absent$/m },
  { rule: 'the key is not checked', row: /^CONTRADICTS +list-no-key +status +401 +200$/m },
  { rule: 'getPet announces a Sunset of 1 December 2030', wrap: sunsetOn('Sun, 01 Dec 2030 00:00:00 GMT'), row: /^CONTRADICTS +get-existing +header Sunset +Thu, 05 Dec 2030 00:00:00 GMT +Sun, 01 Dec 2030 00:00:00 GMT$/m },
  { rule: 'getPet announces a Sunset of 5 December 2031', wrap: sunsetOn('Fri, 05 Dec 2031 00:00:00 GMT'), row: /^CONTRADICTS +get-existing +header Sunset +Thu, 05 Dec 2030 00:00:00 GMT +Fri, 05 Dec 2031 00:00:00 GMT$/m },
] as const

for (const drift of DRIFTS) {
  it.concurrent(`exits 1 naming the probe and the difference when the deployment drifts: ${drift.rule}`, async ({ expect }) => {
    const deployment = await startVerifiableFake({ wrap: 'wrap' in drift ? drift.wrap : driftOf(drift.rule) })
    try {
      const run = await parity(['--base-url', deployment.baseUrl], PROVIDER_KEY)
      expect(run.code, run.stdout + run.stderr).toBe(1)
      expect(run.stdout).toMatch(drift.row)
      expect(run.stdout).toMatch(/contradiction\(s\) of the spec/)
      // The last screen: the verdict and tally, the deployment's slowest answers, the reports.
      expect(run.stdout).toMatch(/\n── summary: FAILED ──\n\d+ probes and scenarios: \d+ alike, [1-9]\d* contradiction\(s\), \d+ open difference\(s\), 0 without an answer\nslowest: [\w-]+ \d+ ms; [\w-]+ \d+ ms; [\w-]+ \d+ ms\nreports: none written \(--json, --junit\)\n$/)
      expect(run.stdout).not.toContain(PROVIDER_KEY)
    } finally {
      await deployment.close()
    }
  })
}

it('reports differences where the spec is open as open, passing unless --strict', async () => {
  const deployment = await startVerifiableFake({ wrap: withoutChallenge })
  const reports = createReportDir()
  try {
    const lenient = await parity(['--base-url', deployment.baseUrl, '--json', reports.path('p.json')], PROVIDER_KEY)
    expect(lenient.code, lenient.stdout + lenient.stderr).toBe(0)
    expect(lenient.stdout).toMatch(/^open +list-no-key +header WWW-Authenticate +present +absent$/m)
    expect(lenient.stdout).toContain('open: the spec does not name WWW-Authenticate')
    expect(lenient.stdout).not.toContain('CONTRADICTS')
    const json = JSON.parse(reports.read('p.json')) as { passed: boolean; findings: { verdict: string; aspect: string }[] }
    expect(json.passed).toBe(true)
    expect(json.findings.length).toBe(PARITY_PROBES.filter((probe) => probe.expect.status === 401).length)
    expect(new Set(json.findings.map((each) => `${each.verdict} ${each.aspect}`))).toEqual(new Set(['open header WWW-Authenticate']))

    const strict = await parity(['--base-url', deployment.baseUrl, '--strict', '--junit', reports.path('strict.xml')], PROVIDER_KEY)
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain(`\nreports: JUnit ${reports.path('strict.xml')}\n`)
    const failures = reports.read('strict.xml').match(/<failure message="header WWW-Authenticate: /g) ?? []
    expect(failures.length).toBe(PARITY_PROBES.filter((probe) => probe.expect.status === 401).length)
  } finally {
    reports.remove()
    await deployment.close()
  }
})

it('writes a JUnit case per probe and scenario, each timed: a contradiction fails its case, an open difference passes with a note', async () => {
  const deployment = await startVerifiableFake({ wrap: (site) => withoutChallenge(driftOf('createPet answers 200 instead of 201')(site)) })
  const reports = createReportDir()
  try {
    const run = await parity(['--base-url', deployment.baseUrl, '--junit', reports.path('parity.xml'), '--json', reports.path('parity.json')], PROVIDER_KEY)
    expect(run.code).toBe(1)
    const xml = reports.read('parity.xml')
    const cases = xml.match(/<testcase [^>]*>/g) ?? []
    expect(cases.length).toBe(checks())
    for (const each of cases) expect(each).toMatch(/ time="\d+\.\d{3}"/)
    expect(xml).toContain('<testsuite name="probes" ')
    expect(xml).toContain(`<testsuite name="scenarios" tests="${PARITY_SCENARIOS.length}" failures="0"`)
    expect(xml).toMatch(/<testcase name="create-with-status: POST \/pets" classname="animals-mock parity.probes" time="[\d.]+">\n {6}<failure message="status: the fake 201, the deployment 200 \(/)
    // The 401 probes differ only where the spec is open: passed, with the difference as a note.
    const open = xml.match(/<testcase name="list-no-key: [^"]*" classname="animals-mock parity.probes" time="[\d.]+">\n {6}<system-out>open: header WWW-Authenticate: the fake present, the deployment absent/g) ?? []
    expect(open).toHaveLength(1)
    // Both creations get 200: two probes fail, nothing else.
    expect(xml).toMatch(/<testsuites name="animals-mock parity" tests="\d+" failures="2" errors="0">/)
    expect(run.stdout).toContain(`\nreports: JSON ${reports.path('parity.json')}; JUnit ${reports.path('parity.xml')}\n`)
  } finally {
    reports.remove()
    await deployment.close()
  }
})

it('refuses a report path it cannot write before sending any request: exit 2, one line', async () => {
  const reports = createReportDir()
  try {
    const deployment = await startVerifiableFake()
    try {
      const blocker = reports.path('a-file')
      writeFileSync(blocker, '')
      for (const flag of ['--junit', '--json']) {
        const run = await parity(['--base-url', deployment.baseUrl, flag, join(blocker, 'parity.out')], PROVIDER_KEY)
        expect(run.code).toBe(2)
        expect(run.stdout).toBe('')
        expect(run.stderr).toMatch(/^animals-mock: cannot write the report [^\n]*a-file\/parity\.out: (ENOTDIR|EEXIST)[^\n]*\n$/)
      }
      expect(deployment.fake.journal()).toEqual([])
    } finally {
      await deployment.close()
    }
  } finally {
    reports.remove()
  }
})

it('compares with a running fake given by --fake-url', async () => {
  const [fake, deployment] = await Promise.all([startVerifiableFake(), startVerifiableFake({ wrap: driftOf('createPet answers 200 instead of 201') })])
  try {
    const run = await parity(['--base-url', deployment.baseUrl, '--fake-url', fake.baseUrl], PROVIDER_KEY)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`the fake at ${fake.baseUrl} against ${deployment.baseUrl}`)
    expect(run.stdout).toMatch(/^CONTRADICTS +create-with-status +status +201 +200$/m)
    // The running fake got the probes, and the animals they created carry the marker.
    const marked = fake.fake.store.all().filter((pet) => pet.name.includes('[animals-mock parity '))
    expect(marked.length).toBeGreaterThan(0)
  } finally {
    await Promise.all([fake.close(), deployment.close()])
  }
})

it('exits 2 with one line when the deployment cannot be reached, or no key is set', async () => {
  const port = await closedPort()
  const unreachable = await parity(['--base-url', `http://127.0.0.1:${port}/v1`], STAGING_KEY)
  expect(unreachable.code).toBe(2)
  expect(unreachable.stdout).toBe('')
  expect(unreachable.stderr).toBe(`animals-mock: cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)\n`)
  const keyless = await runCli(['parity', '--base-url', staging.baseUrl])
  expect(keyless.code).toBe(2)
  expect(keyless.stderr).toMatch(/^animals-mock: ANIMALS_MOCK_VERIFY_KEY is not set[^\n]*\n$/)
})
