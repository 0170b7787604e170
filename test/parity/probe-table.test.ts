import { afterAll, beforeAll, expect, it } from 'vitest'
import { toParityJson } from '../../src/parity/report.js'
import { type ParityOptions, runParity } from '../../src/parity/run.js'
import { PARITY_PROBES, type Probe } from '../../src/parity/probes.js'
import { operationOf } from '../../src/spec/animals-service.js'
import { type IndependentOptions, startIndependentService } from '../support/independent-service/service.js'
import { PROVIDER_KEY, startVerifiableFake, type VerifiableFake } from '../support/pact-verification.js'

// What parity sends and expects, judged by what it does rather than restated: against an
// implementation written from the spec alone, each probe that pins a status gets it from both
// sides; the report says what each probe sent and expected; each bad input is refused for the
// reason it is named for.
const closers: (() => Promise<void>)[] = []
let fake: VerifiableFake
beforeAll(async () => {
  fake = await startVerifiableFake()
  closers.push(() => fake.close())
})
afterAll(() => Promise.all(closers.map((close) => close())))

async function parityWith(service: IndependentOptions, extra: Partial<ParityOptions> = {}): ReturnType<typeof runParity> {
  const deployment = await startIndependentService(service)
  closers.push(() => deployment.close())
  return runParity({
    fake: { baseUrl: fake.baseUrl, apiKey: PROVIDER_KEY },
    deployment: { baseUrl: deployment.baseUrl, apiKey: PROVIDER_KEY },
    marker: '[animals-mock parity table-1]',
    timeoutMs: 5000,
    scenarios: [],
    ...extra,
  })
}

it('sends every probe once to each side; a correct implementation and the fake both answer a probe that pins a status with that status', async () => {
  const report = await parityWith({ keys: [PROVIDER_KEY], seeded: 30 })
  expect(report.outcomes.map((each) => each.probe.id)).toEqual(PARITY_PROBES.map((each) => each.id))
  for (const { probe, fake: fakeAnswer, deployment } of report.outcomes) {
    if (!fakeAnswer.ok || !deployment.ok) throw new Error(`${probe.id}: a side did not answer`)
    if (probe.expect.status === undefined) continue
    expect(fakeAnswer.status, `${probe.id}, the fake`).toBe(probe.expect.status)
    expect(deployment.status, `${probe.id}, the independent implementation`).toBe(probe.expect.status)
  }
  // Both are correct: where they answer otherwise, the spec leaves it open, and parity says so.
  expect(report.findings.filter((each) => each.verdict !== 'open')).toEqual([])
  const differentStatus = report.findings.filter((each) => each.aspect === 'status').map((each) => each.probe)
  expect(differentStatus.length).toBeGreaterThan(0)
  for (const id of differentStatus) expect(PARITY_PROBES.find((each) => each.id === id)?.expect.status, id).toBeUndefined()
})

it('names in the JSON report what each probe sent and what the spec expects of it', async () => {
  const report = await parityWith({ keys: [PROVIDER_KEY], seeded: 30 })
  const json = toParityJson(report, { fake: 'fake', deployment: 'deployment', marker: 'm', strict: false }) as { probes: Record<string, unknown>[] }
  expect(json.probes).toHaveLength(PARITY_PROBES.length)
  for (const [index, line] of json.probes.entries()) {
    const probe = PARITY_PROBES[index] as Probe
    expect(line, probe.id).toMatchObject({ id: probe.id, operation: probe.operation, specStatus: probe.expect.status ?? null, rule: probe.expect.rule })
    expect(line.request, probe.id).toMatch(new RegExp(`^${probe.method} /pets`.replace('/pets', '/(pets|animals)')))
    // The operation a probe is filed under is the one the spec gives its method and path.
    const specOperation = operationOf(probe.method, probe.path.replace('{petId}', '1')) ?? 'other'
    expect(probe.operation, probe.id).toBe(specOperation)
  }
})

/**
 * What a bad input's probe is named for, read from its id: a parameter or field missing
 * (`create-without-name`) or holding a value it may not (`list-limit-0`, `create-categoryId-null`),
 * or a body that is not one.
 */
function brokenBy(id: string): RegExp {
  const missing = /^create-without-(\w+)$/.exec(id)?.[1]
  if (missing !== undefined) return new RegExp(`'${missing}' is required`)
  const wrong = /^(?:list-(limit|status)-|create-(categoryId|name)-|create-unknown-(status)$)/.exec(id)
  const subject = id === 'get-id-not-integer' ? 'petId' : wrong?.slice(1).find((each) => each !== undefined)
  if (subject !== undefined) return new RegExp(`'${subject}' must`)
  return /\bbody\b|JSON|Content-Type/i
}

it("meets each bad input's rule for the reason it is named for, as the fake's Error message says", async () => {
  const report = await parityWith({ keys: [PROVIDER_KEY], seeded: 30 })
  const refused = report.outcomes.filter((each) => each.fake.ok && each.fake.status === 400)
  expect(refused.length).toBeGreaterThan(15)
  for (const { probe, fake: answer } of refused) {
    if (!answer.ok) continue
    expect((JSON.parse(answer.body) as { message: string }).message, probe.id).toMatch(brokenBy(probe.id))
  }
})

it('sends the auth probes a valid body, so only the bad-body ones tell a service that reads the body before the key', async () => {
  const report = await parityWith({ keys: [PROVIDER_KEY], seeded: 30, drift: 'body checked before the key' })
  expect(report.findings.filter((each) => each.verdict === 'contradiction').map((each) => [each.probe, each.aspect, each.fake, each.deployment])).toEqual([
    ['create-no-key-bad-body', 'status', '401', '400'],
    ['create-invalid-key-bad-body', 'status', '401', '400'],
  ])
})
