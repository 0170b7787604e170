import type { Finding, Observed } from './compare.js'
import { describeProbe } from './probes.js'
import type { ParityReport } from './run.js'
import { type JUnitCase, toJUnitXml } from '../reports/junit-xml.js'

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

/**
 * The JUnit XML report: a case per probe and per scenario, timed by the deployment's answer. A
 * contradiction or a missing answer fails its case; an open difference passes with a note (and
 * fails under `strict`), so CI shows it without failing the build.
 */
export function toParityJUnit(report: ParityReport, strict: boolean): string {
  const findingsOf = (id: string): Finding[] => report.findings.filter((each) => each.probe === id)
  const toCase = (id: string, request: string, kind: string, ms: number | undefined): JUnitCase => {
    const findings = findingsOf(id)
    const failing = findings.filter((each) => each.verdict !== 'open' || strict)
    const notes = findings.filter((each) => each.verdict === 'open' && !strict).map((each) => `open: ${findingLine(each)}`)
    const base = { name: `${id}: ${request}`, classname: `animals-mock parity.${kind}`, timeSeconds: (ms ?? 0) / 1000 }
    const withNotes = notes.length === 0 ? base : { ...base, systemOut: notes.join('\n') }
    const [first] = failing
    if (first === undefined) return withNotes
    return { ...withNotes, failure: { message: findingLine(first), type: first.verdict, details: failing.map(findingLine).join('\n') } }
  }
  return toJUnitXml('animals-mock parity', [
    { name: 'probes', cases: report.outcomes.map((each) => toCase(each.probe.id, describeProbe(each.probe), 'probes', each.deploymentMs)) },
    { name: 'scenarios', cases: report.scenarios.map((each) => toCase(each.scenario.id, each.scenario.request, 'scenarios', each.deploymentMs)) },
  ])
}

/** One finding in a line: what differed, each side's answer, and the rule or why the spec is open. */
function findingLine(finding: Finding): string {
  return `${finding.aspect}: the fake ${finding.fake}, the deployment ${finding.deployment} (${finding.reason})`
}

/** The slowest of a run's requests to the deployment, slowest first. */
export function slowestParity(report: ParityReport, count = 3): { readonly id: string; readonly ms: number }[] {
  const timed = [
    ...report.outcomes.map((each) => ({ id: each.probe.id, ms: each.deploymentMs ?? 0 })),
    ...report.scenarios.map((each) => ({ id: each.scenario.id, ms: each.deploymentMs ?? 0 })),
  ]
  return timed.sort((a, b) => b.ms - a.ms).slice(0, count)
}
