import { expect, it } from 'vitest'
import { judgeScenario, PARITY_SCENARIOS, type ScenarioSeen } from '../../src/parity/scenario-run.js'

const [scenario] = PARITY_SCENARIOS
if (scenario === undefined) throw new Error('no scenario')
const kept = (summary: string): ScenarioSeen => ({ ok: true, summary, violations: [] })

it('finds nothing where both sides kept the spec, however their summaries differ', () => {
  expect(judgeScenario({ scenario, fake: kept('a new id, unlike the 25 listed'), deployment: kept('a new id, unlike the 120 listed') })).toEqual([])
})

it('reports one contradiction per aspect, naming the side that broke the spec and every reason once', () => {
  const fake: ScenarioSeen = { ok: true, summary: 'fake saw', violations: [{ aspect: 'ids', reason: 'reused' }] }
  const deployment: ScenarioSeen = {
    ok: true,
    summary: 'deployment saw',
    violations: [
      { aspect: 'stored animals', reason: 'stored with no key' },
      { aspect: 'stored animals', reason: 'stored with an invalid key' },
      { aspect: 'ids', reason: 'shared' },
      { aspect: 'ids', reason: 'reused' },
    ],
  }
  expect(judgeScenario({ scenario, fake, deployment })).toEqual([
    { probe: scenario.id, verdict: 'contradiction', aspect: 'ids', fake: 'fake saw', deployment: 'deployment saw', side: 'both', reason: 'shared; reused' },
    { probe: scenario.id, verdict: 'contradiction', aspect: 'stored animals', fake: 'fake saw', deployment: 'deployment saw', side: 'deployment', reason: 'stored with no key; stored with an invalid key' },
  ])
  expect(judgeScenario({ scenario, fake, deployment: kept('fine') })).toEqual([
    { probe: scenario.id, verdict: 'contradiction', aspect: 'ids', fake: 'fake saw', deployment: 'fine', side: 'fake', reason: 'reused' },
  ])
})

it('reports a side that could not finish as one finding without an answer', () => {
  const reason = 'a side did not answer within the timeout, or the connection failed'
  expect(judgeScenario({ scenario, fake: kept('fine'), deployment: { ok: false, error: 'no answer within 10 ms' } })).toEqual([
    { probe: scenario.id, verdict: 'no-answer', aspect: 'status', fake: 'fine', deployment: 'no answer: no answer within 10 ms', reason },
  ])
  expect(judgeScenario({ scenario, fake: { ok: false, error: 'connection refused (ECONNREFUSED)' }, deployment: { ok: true, summary: 'x', violations: [{ aspect: 'ids', reason: 'r' }] } })).toEqual([
    { probe: scenario.id, verdict: 'no-answer', aspect: 'status', fake: 'no answer: connection refused (ECONNREFUSED)', deployment: 'x', reason },
  ])
})
