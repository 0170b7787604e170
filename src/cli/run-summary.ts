/** The last screen of a run against a deployment: the verdict and tally, the slowest, the reports. */
export type RunSummary = {
  readonly verdict: 'PASSED' | 'FAILED'
  /** The tally by outcome, in words. */
  readonly counts: string
  /** The slowest requests or interactions, slowest first, each with its time. */
  readonly slowest: readonly string[]
  /** Each report written, e.g. `JUnit reports/pact.xml`. */
  readonly reports: readonly string[]
}

/**
 * The summary `verify` and `parity` end with, so a CI log's last lines say what happened.
 * @example formatRunSummary({ verdict: 'PASSED', counts: '3 interactions: 3 passed', slowest: ['a 12 ms'], reports: [] })
 */
export function formatRunSummary(summary: RunSummary): string {
  const lines = [
    '',
    `── summary: ${summary.verdict} ──`,
    summary.counts,
    `slowest: ${summary.slowest.length === 0 ? 'none timed' : summary.slowest.join('; ')}`,
    `reports: ${summary.reports.length === 0 ? 'none written (--json, --junit)' : summary.reports.join('; ')}`,
  ]
  return `${lines.join('\n')}\n`
}
