import type { Finding, Observed } from './compare.js'
import { describeProbe } from './probes.js'
import type { ParityReport } from './run.js'

/** Where parity ran, for its reports. */
export type ParityRun = {
  /** The fake's API base, or a note that it ran in this process. */
  readonly fake: string
  readonly deployment: string
  readonly marker: string
  /** Whether differences where the spec is open fail the run too. */
  readonly strict: boolean
}

/** The tally of a parity run. */
export type ParitySummary = {
  readonly probes: number
  readonly alike: number
  readonly contradictions: number
  readonly open: number
  readonly noAnswer: number
}

/** Counts the findings: probes alike, contradictions, open differences and probes without an answer. */
export function summariseParity(report: ParityReport): ParitySummary {
  const count = (verdict: Finding['verdict']): number => report.findings.filter((each) => each.verdict === verdict).length
  const differing = new Set(report.findings.map((each) => each.probe))
  const ids = [...report.outcomes.map((each) => each.probe.id), ...report.scenarios.map((each) => each.scenario.id)]
  return {
    probes: ids.length,
    alike: ids.filter((id) => !differing.has(id)).length,
    contradictions: count('contradiction'),
    open: count('open'),
    noAnswer: count('no-answer'),
  }
}

/** Whether a parity run passes: no contradiction and no missing answer, and under `strict` no open difference either. */
export function parityPassed(summary: ParitySummary, strict: boolean): boolean {
  return summary.contradictions === 0 && summary.noAnswer === 0 && (!strict || summary.open === 0)
}

const VERDICT_TEXT = { contradiction: 'CONTRADICTS', open: 'open', 'no-answer': 'NO ANSWER' } as const
const CELL = 34

/**
 * The table a person reads: one row per finding (verdict, probe, aspect, the fake's answer, the
 * deployment's), the request and the rule under it, then the tally.
 */
export function formatParityText(report: ParityReport): string {
  const summary = summariseParity(report)
  if (report.findings.length === 0) return `no differences: the deployment answered all ${summary.probes} probes as the fake did\n`
  const lines: string[] = []
  const requests = new Map([
    ...report.outcomes.map((each): [string, string] => [each.probe.id, describeProbe(each.probe)]),
    ...report.scenarios.map((each): [string, string] => [each.scenario.id, each.scenario.request]),
  ])
  const ordered = [...report.findings].sort((a, b) => rank(a) - rank(b))
  lines.push(row(['VERDICT', 'PROBE', 'ASPECT', 'FAKE', 'DEPLOYMENT']))
  for (const finding of ordered) {
    lines.push(row([VERDICT_TEXT[finding.verdict], finding.probe, finding.aspect, finding.fake, finding.deployment]))
    const whose = finding.side === 'fake' ? ' (the fake contradicts it)' : finding.side === 'both' ? ' (both contradict it)' : ''
    const why = finding.verdict === 'contradiction' ? `${finding.reason}${whose}` : finding.verdict === 'open' ? `open: ${finding.reason}` : finding.reason
    lines.push(`             ${requests.get(finding.probe) ?? finding.probe}: ${why}`)
  }
  lines.push(
    '',
    `${summary.probes} probes: ${summary.alike} alike; ${summary.contradictions} contradiction(s) of the spec, ` +
      `${summary.open} open difference(s), ${summary.noAnswer} without an answer`,
  )
  return `${lines.join('\n')}\n`
}

function rank(finding: Finding): number {
  return finding.verdict === 'open' ? 1 : 0
}

function row(cells: readonly string[]): string {
  const fitted = cells.map((cell) => (cell.length > CELL ? `${cell.slice(0, CELL - 1)}…` : cell))
  const [verdict = '', probe = '', aspect = '', fake = '', deployment = ''] = fitted
  return `${verdict.padEnd(12)} ${probe.padEnd(26)} ${aspect.padEnd(24)} ${fake.padEnd(CELL)} ${deployment}`.trimEnd()
}

/** The JSON report: the run, the tally, every probe's statuses and every finding in full. */
export function toParityJson(report: ParityReport, run: ParityRun): unknown {
  const summary = summariseParity(report)
  const statusOf = (observed: Observed): number | string => (observed.ok ? observed.status : `no answer: ${observed.error}`)
  return {
    command: 'parity',
    fake: run.fake,
    deployment: run.deployment,
    marker: run.marker,
    strict: run.strict,
    passed: parityPassed(summary, run.strict),
    summary,
    probes: report.outcomes.map((each) => ({
      id: each.probe.id,
      operation: each.probe.operation,
      request: describeProbe(each.probe),
      specStatus: each.probe.expect.status ?? null,
      rule: each.probe.expect.rule,
      fake: statusOf(each.fake),
      deployment: statusOf(each.deployment),
    })),
    scenarios: report.scenarios.map((each) => ({
      id: each.scenario.id,
      request: each.scenario.request,
      rule: each.scenario.rule,
      fake: each.fake.ok ? each.fake.summary : `no answer: ${each.fake.error}`,
      deployment: each.deployment.ok ? each.deployment.summary : `no answer: ${each.deployment.error}`,
    })),
    findings: report.findings,
  }
}
