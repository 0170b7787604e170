import type { DeprecationWarning } from './deprecation-warnings.js'
import { type JUnitSuite, toJUnitXml } from '../reports/junit-xml.js'
import { PACT_PARTIES } from '../contracts/pact-files.js'
import { type InteractionOutcome, type Mismatch, stripAnsi } from './results.js'
import type { VerificationReport } from './provider.js'
import { leadLine, leadMismatch } from './lead-line.js'

/** Where a verification ran and what it verified, for its reports. */
export type VerificationRun = {
  /** The provider's API base. */
  readonly baseUrl: string
  /** The text the run appended to the names of the animals it created. */
  readonly marker: string
  /** Where the pacts came from, in words, e.g. the files or the broker and selectors. */
  readonly pacts: string
}

const LONGEST_VALUE = 300

/**
 * The report a person reads: one line per interaction, and under each failure what was expected
 * against what the provider answered; then a warning per interaction that depends on a deprecated
 * operation (warnings never fail a run).
 */
export function formatVerificationText(report: VerificationReport, warnings: readonly DeprecationWarning[] = []): string {
  const several = new Set(report.interactions.map((each) => each.consumer)).size > 1
  const lines: string[] = []
  for (const outcome of report.interactions) {
    const name = several && outcome.consumer !== undefined ? `${outcome.consumer} › ${outcome.description}` : outcome.description
    const given = outcome.providerStates.length === 0 ? '' : ` [given ${outcome.providerStates.join(' and ')}]`
    lines.push(`${outcome.passed ? 'PASS' : 'FAIL'}  ${name}${given}`)
    if (outcome.passed) continue
    if (outcome.mismatches.length === 0) {
      lines.push('        failed, without details from the verifier')
      continue
    }
    lines.push(`      → ${leadLine(outcome)}`)
    for (const mismatch of outcome.mismatches) lines.push(...mismatchLines(mismatch))
  }
  for (const problem of report.problems) lines.push(`ERROR ${oneLine(problem)}`)
  for (const warning of warnings) lines.push(`WARN  ${several && warning.consumer !== undefined ? `${warning.consumer} › ` : ''}${warning.message}`)
  const failed = report.interactions.filter((each) => !each.passed).length
  const problems = report.problems.length === 0 ? '' : `; ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} outside them`
  lines.push('', `${report.interactions.length} interactions: ${report.interactions.length - failed} passed, ${failed} failed${problems}`)
  return `${lines.join('\n')}\n`
}

function mismatchLines(mismatch: Mismatch): string[] {
  const subject = mismatch.key === undefined ? mismatch.kind : `${mismatch.kind} ${mismatch.key}`
  const lines = [`        ${subject}: ${shown(mismatch.message)}`]
  // A status mismatch says both already ("expected 201 but was 200").
  if (mismatch.kind === 'status' || mismatch.kind === 'state' || mismatch.kind === 'error') return lines
  if (mismatch.expected !== undefined) lines.push(`          expected: ${shown(mismatch.expected)}`)
  if (mismatch.actual !== undefined) lines.push(`          actual:   ${shown(mismatch.actual)}`)
  return lines
}

// Pact's messages end with the point ("... (size 10) to have minimum size of 20"), so a long one
// keeps its start and its end.
function shown(value: string): string {
  if (value === '') return '(none)'
  const text = oneLine(value)
  if (text.length <= LONGEST_VALUE) return text
  const half = Math.floor(LONGEST_VALUE / 2)
  return `${text.slice(0, half)} … ${text.slice(-half)}`
}

function oneLine(text: string): string {
  return stripAnsi(text).replace(/\s+/g, ' ').trim()
}

/** The slowest interactions, slowest first, for the summary a run ends with. */
export function slowestInteractions(report: VerificationReport, count = 3): string[] {
  return report.interactions
    .filter((each) => each.durationMs !== undefined)
    .toSorted((a, b) => (b.durationMs ?? 0) - (a.durationMs ?? 0))
    .slice(0, count)
    .map((each) => `${each.description} ${each.durationMs} ms`)
}

/** The JSON report: the run, a summary, and every interaction with its mismatches. */
export function toVerificationJson(report: VerificationReport, run: VerificationRun, warnings: readonly DeprecationWarning[] = []): unknown {
  const failed = report.interactions.filter((each) => !each.passed).length
  return {
    command: 'verify',
    baseUrl: run.baseUrl,
    marker: run.marker,
    pacts: run.pacts,
    passed: report.passed && report.problems.length === 0 && failed === 0,
    summary: { interactions: report.interactions.length, passed: report.interactions.length - failed, failed },
    interactions: report.interactions.map((each) => ({
      consumer: each.consumer ?? null,
      description: each.description,
      providerStates: each.providerStates,
      result: each.passed ? 'passed' : 'failed',
      ...(each.passed ? {} : { lead: leadLine(each) }),
      durationMs: each.durationMs ?? null,
      mismatches: each.mismatches.map((mismatch) => ({ ...mismatch, message: stripAnsi(mismatch.message) })),
    })),
    problems: report.problems.map(stripAnsi),
    stateErrors: report.stateErrors,
    warnings: warnings.map((each) => ({ consumer: each.consumer ?? null, description: each.description, message: each.message })),
  }
}

/**
 * The JUnit XML report: a suite per consumer, a test case per interaction, a failure per failed
 * one. JUnit has no warning: a deprecation warning is the case's `system-out`, which CI servers show.
 */
export function toVerificationJUnit(report: VerificationReport, warnings: readonly DeprecationWarning[] = []): string {
  const byConsumer = new Map<string, InteractionOutcome[]>()
  for (const outcome of report.interactions) {
    const consumer = outcome.consumer ?? 'pacts'
    byConsumer.set(consumer, [...(byConsumer.get(consumer) ?? []), outcome])
  }
  const suites: JUnitSuite[] = [...byConsumer].map(([consumer, outcomes]) => ({
    name: `${consumer} - ${PACT_PARTIES.provider}`,
    cases: outcomes.map((outcome) => {
      const warning = warnings.find((each) => each.description === outcome.description && (each.consumer ?? 'pacts') === consumer)
      const base = {
        name: outcome.description,
        classname: `${consumer}.${PACT_PARTIES.provider}`,
        // Pact gives no duration for an interaction it could not replay: 0 there, as it took none.
        timeSeconds: (outcome.durationMs ?? 0) / 1000,
        ...(warning === undefined ? {} : { systemOut: `WARNING: ${warning.message}` }),
      }
      if (outcome.passed) return base
      const details = [leadLine(outcome), ...outcome.mismatches.flatMap(mismatchLines).map((line) => line.trim())]
      const first = leadMismatch(outcome)
      return {
        ...base,
        failure: {
          message: leadLine(outcome),
          type: first === undefined ? 'mismatch' : `${first.kind} mismatch`,
          details: details.join('\n'),
        },
      }
    }),
  }))
  return toJUnitXml('animals-mock verify', suites)
}
