import type { Finding } from './compare.js'
import type { Scenario, ScenarioResult } from './scenarios.js'

export { PARITY_SCENARIOS, type Scenario, type ScenarioSide } from './scenarios.js'

/** What a scenario saw on one side, or why it could not finish there. */
export type ScenarioSeen = ({ readonly ok: true } & ScenarioResult) | { readonly ok: false; readonly error: string }

/** How the fake and the deployment did in one scenario. */
export type ScenarioOutcome = {
  readonly scenario: Scenario
  readonly fake: ScenarioSeen
  readonly deployment: ScenarioSeen
  /** How long the deployment's side of the scenario took, in milliseconds. */
  readonly deploymentMs?: number
}

/**
 * The findings of a scenario: a contradiction per aspect where a side broke the spec, naming the
 * side; a side where it could not finish is a probe without an answer. Where both sides kept the
 * spec, their summaries may differ (ids, counts): nothing the spec pins, so nothing is reported.
 */
export function judgeScenario(outcome: ScenarioOutcome): Finding[] {
  const { scenario, fake, deployment } = outcome
  const shown = (seen: ScenarioSeen): string => (seen.ok ? seen.summary : `no answer: ${seen.error}`)
  if (!fake.ok || !deployment.ok) {
    const reason = 'a side did not answer within the timeout, or the connection failed'
    return [{ probe: scenario.id, verdict: 'no-answer', aspect: 'status', fake: shown(fake), deployment: shown(deployment), reason }]
  }
  const aspects = [...new Set([...fake.violations, ...deployment.violations].map((each) => each.aspect))]
  return aspects.map((aspect): Finding => {
    const onFake = fake.violations.filter((each) => each.aspect === aspect)
    const onDeployment = deployment.violations.filter((each) => each.aspect === aspect)
    const side = onFake.length === 0 ? 'deployment' : onDeployment.length === 0 ? 'fake' : 'both'
    const reason = [...new Set([...onDeployment, ...onFake].map((each) => each.reason))].join('; ')
    return { probe: scenario.id, verdict: 'contradiction', aspect, fake: fake.summary, deployment: deployment.summary, side, reason }
  })
}
