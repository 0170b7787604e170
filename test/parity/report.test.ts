import { expect, it } from 'vitest'
import type { Finding, Observed, ProbeOutcome } from '../../src/parity/compare.js'
import { PARITY_PROBES, type Probe } from '../../src/parity/probes.js'
import { formatParityText, parityPassed, slowestParity, summariseParity, toParityJson, toParityJUnit } from '../../src/parity/report.js'
import type { ParityReport } from '../../src/parity/run.js'
import { PARITY_SCENARIOS, type ScenarioOutcome } from '../../src/parity/scenario-run.js'

const probe = (id: string): Probe => {
  const found = PARITY_PROBES.find((each) => each.id === id)
  if (found === undefined) throw new Error(`no probe ${id}`)
  return found
}
const [refused, parallel] = PARITY_SCENARIOS
if (refused === undefined || parallel === undefined) throw new Error('scenarios missing')

const seen = (status: number): Observed => ({ ok: true, status, headers: {}, body: '' })
const outcome = (id: string, fake: Observed, deployment: Observed = fake): ProbeOutcome => ({ probe: probe(id), fake, deployment })
const fine = { ok: true, summary: 'none of the refused animals stored', violations: [] } as const
const OUTCOMES = [outcome('create-with-status', seen(201), seen(200)), outcome('list-no-key', seen(401)), outcome('get-existing', seen(200), { ok: false, error: 'timed out after 10 ms' })]
const SCENARIOS: ScenarioOutcome[] = [
  { scenario: refused, fake: fine, deployment: { ok: true, summary: 'stored: sent with no key', violations: [{ aspect: 'stored animals', reason: 'stored' }] } },
  { scenario: parallel, fake: { ok: true, summary: '20 created, 20 distinct ids', violations: [] }, deployment: { ok: false, error: 'connection reset (ECONNRESET)' } },
]
const contradiction: Finding = {
  probe: 'create-with-status',
  verdict: 'contradiction',
  aspect: 'status',
  fake: '201',
  deployment: '200',
  side: 'deployment',
  reason: '200 instead of 201; spec 4.2: "201 | Pet (includes the assigned `id`) | Animal added"',
}
const open: Finding = { probe: 'list-no-key', verdict: 'open', aspect: 'header WWW-Authenticate', fake: 'present', deployment: 'absent', reason: 'the spec does not name WWW-Authenticate' }
const silent: Finding = { probe: 'get-existing', verdict: 'no-answer', aspect: 'status', fake: '200', deployment: 'no answer: timed out after 10 ms', reason: 'a side did not answer within the timeout, or the connection failed' }
const stored: Finding = { probe: 'refused-create-stores-nothing', verdict: 'contradiction', aspect: 'stored animals', fake: 'none of the refused animals stored', deployment: 'stored: sent with no key', side: 'both', reason: 'stored' }
const report = (findings: readonly Finding[]): ParityReport => ({ outcomes: OUTCOMES, scenarios: SCENARIOS, findings })

it('counts every probe and scenario, those alike, and the findings by verdict', () => {
  expect(summariseParity(report([open, contradiction, silent, stored, { ...open, aspect: 'header Allow' }]))).toEqual({ probes: 5, alike: 1, contradictions: 2, open: 2, noAnswer: 1 })
  expect(summariseParity(report([]))).toEqual({ probes: 5, alike: 5, contradictions: 0, open: 0, noAnswer: 0 })
})

it('passes a run without contradictions or missing answers, and under --strict without open differences', () => {
  const summary = { probes: 5, alike: 4, contradictions: 0, open: 0, noAnswer: 0 }
  expect(parityPassed(summary, false)).toBe(true)
  expect(parityPassed(summary, true)).toBe(true)
  expect(parityPassed({ ...summary, open: 1 }, false)).toBe(true)
  expect(parityPassed({ ...summary, open: 1 }, true)).toBe(false)
  expect(parityPassed({ ...summary, contradictions: 1 }, false)).toBe(false)
  expect(parityPassed({ ...summary, noAnswer: 1 }, false)).toBe(false)
})

it('prints one line when nothing differs', () => {
  expect(formatParityText(report([]))).toBe('no differences: the deployment answered all 5 probes as the fake did\n')
})

it('prints a table, the failures first, each finding with its request and its rule, then the tally', () => {
  const text = formatParityText(report([open, contradiction, silent, { ...contradiction, side: 'fake' }, stored]))
  expect(text.split('\n')).toEqual([
    'VERDICT      PROBE                      ASPECT                   FAKE                               DEPLOYMENT',
    'CONTRADICTS  create-with-status         status                   201                                200',
    '             POST /pets: 200 instead of 201; spec 4.2: "201 | Pet (includes the assigned `id`) | Animal added"',
    'NO ANSWER    get-existing               status                   200                                no answer: timed out after 10 ms',
    '             GET /pets/{petId}: a side did not answer within the timeout, or the connection failed',
    'CONTRADICTS  create-with-status         status                   201                                200',
    '             POST /pets: 200 instead of 201; spec 4.2: "201 | Pet (includes the assigned `id`) | Animal added" (the fake contradicts it)',
    'CONTRADICTS  refused-create-stores-nothing stored animals           none of the refused animals stored stored: sent with no key',
    '             POST /pets with no key, an invalid key and an empty token, then look for those animals: stored (both contradict it)',
    'open         list-no-key                header WWW-Authenticate  present                            absent',
    '             GET /pets (no key): open: the spec does not name WWW-Authenticate',
    '',
    '5 probes: 1 alike; 3 contradiction(s) of the spec, 1 open difference(s), 1 without an answer',
    '',
  ])
})

it('cuts a cell longer than its column with an ellipsis, and names a finding of no known probe by its id', () => {
  const long: Finding = { ...open, probe: 'a-probe-of-another-run', fake: 'x'.repeat(34), deployment: 'y'.repeat(35) }
  const [, row, under] = formatParityText(report([long])).split('\n')
  expect(row).toBe(`open         a-probe-of-another-run     header WWW-Authenticate  ${'x'.repeat(34)} ${'y'.repeat(33)}…`)
  expect(under).toBe('             a-probe-of-another-run: open: the spec does not name WWW-Authenticate')
  const [, empty] = formatParityText(report([{ ...open, probe: 'get-existing', aspect: 'header Sunset', fake: 'absent', deployment: '' }])).split('\n')
  expect(empty).toBe('open         get-existing               header Sunset            absent')
})

it('writes the run, the tally, each probe and scenario with both answers, and every finding as JSON', () => {
  const run = { fake: 'in-process', deployment: 'https://staging.example/v1', marker: '[animals-mock parity ci-7]', strict: true }
  expect(toParityJson(report([open, silent]), run)).toEqual({
    command: 'parity',
    fake: 'in-process',
    deployment: 'https://staging.example/v1',
    marker: '[animals-mock parity ci-7]',
    strict: true,
    passed: false,
    summary: { probes: 5, alike: 3, contradictions: 0, open: 1, noAnswer: 1 },
    probes: [
      { id: 'create-with-status', operation: 'createPet', request: 'POST /pets', specStatus: 201, rule: probe('create-with-status').expect.rule, fake: 201, deployment: 200 },
      { id: 'list-no-key', operation: 'listPets', request: 'GET /pets (no key)', specStatus: 401, rule: probe('list-no-key').expect.rule, fake: 401, deployment: 401 },
      { id: 'get-existing', operation: 'getPet', request: 'GET /pets/{petId}', specStatus: 200, rule: probe('get-existing').expect.rule, fake: 200, deployment: 'no answer: timed out after 10 ms' },
    ],
    scenarios: [
      { id: 'refused-create-stores-nothing', request: refused.request, rule: refused.rule, fake: 'none of the refused animals stored', deployment: 'stored: sent with no key' },
      { id: 'ids-unique-in-parallel', request: parallel.request, rule: parallel.rule, fake: '20 created, 20 distinct ids', deployment: 'no answer: connection reset (ECONNRESET)' },
    ],
    findings: [open, silent],
  })
  const fakeDown: ScenarioOutcome = { scenario: refused, fake: { ok: false, error: 'refused' }, deployment: fine }
  const lenient = toParityJson({ outcomes: [outcome('list-limit-0', { ok: false, error: 'refused' }, seen(400))], scenarios: [fakeDown], findings: [open] }, { ...run, strict: false })
  expect(lenient).toMatchObject({
    strict: false,
    passed: true,
    probes: [{ id: 'list-limit-0', specStatus: null, fake: 'no answer: refused', deployment: 400 }],
    scenarios: [{ id: 'refused-create-stores-nothing', fake: 'no answer: refused', deployment: 'none of the refused animals stored' }],
  })
})

it('writes a JUnit case per probe and scenario, timed in seconds; a contradiction or no answer fails, an open difference passes with a note unless strict', () => {
  const timed: ParityReport = {
    outcomes: OUTCOMES.map((each, i) => ({ ...each, deploymentMs: [1500, 20, 7][i] ?? 0 })),
    scenarios: SCENARIOS.map((each, i) => ({ ...each, deploymentMs: [300, 40][i] ?? 0 })),
    findings: [contradiction, open, silent, stored],
  }
  const lenient = toParityJUnit(timed, false)
  expect(lenient).toContain('<testsuites name="animals-mock parity" tests="5" failures="3" errors="0">')
  expect(lenient).toContain('<testcase name="create-with-status: POST /pets" classname="animals-mock parity.probes" time="1.500">')
  expect(lenient).toContain('<failure message="status: the fake 201, the deployment 200 (200 instead of 201;')
  expect(lenient).toContain('type="contradiction"')
  expect(lenient).toContain(
    '<testcase name="list-no-key: GET /pets (no key)" classname="animals-mock parity.probes" time="0.020">\n      <system-out>open: header WWW-Authenticate: the fake present, the deployment absent (the spec does not name WWW-Authenticate)</system-out>',
  )
  expect(lenient).toContain('type="no-answer"')
  expect(lenient).toMatch(/<testcase name="refused-create-stores-nothing: [^"]*" classname="animals-mock parity.scenarios" time="0.300">\n {6}<failure/)
  expect(lenient).toMatch(/<testcase name="[^"]*" classname="animals-mock parity.scenarios" time="0.040"\/>/)
  // A case with a contradiction and an open difference fails, and keeps the open one as a note.
  expect(toParityJUnit({ ...timed, findings: [contradiction, { ...open, probe: 'create-with-status' }] }, false)).toMatch(
    /<failure message="status: the fake 201[^\n]*\n {6}<system-out>open: header WWW-Authenticate: /,
  )
  const strict = toParityJUnit(timed, true)
  expect(strict).toContain('failures="4"')
  expect(strict).not.toContain('<system-out>')
  expect(strict).toContain('type="open"')
  // Untimed outcomes count as 0 s.
  expect(toParityJUnit(report([]), false)).toContain('time="0.000"/>')
  expect(slowestParity(timed)).toEqual([{ id: 'create-with-status', ms: 1500 }, { id: 'refused-create-stores-nothing', ms: 300 }, { id: parallel.id, ms: 40 }])
  expect(slowestParity(report([]), 2)).toEqual([{ id: 'create-with-status', ms: 0 }, { id: 'list-no-key', ms: 0 }])
})
