import { expect, it } from 'vitest'
import { formatRunSummary } from '../../src/cli/run-summary.js'

it('ends a run with a blank line, the verdict, the tally, the slowest and the reports, saying when there are none', () => {
  expect(formatRunSummary({ verdict: 'PASSED', counts: '3 interactions: 3 passed', slowest: ['a 12 ms', 'b 3 ms'], reports: ['JSON r.json', 'JUnit r.xml'] })).toBe(
    '\n── summary: PASSED ──\n3 interactions: 3 passed\nslowest: a 12 ms; b 3 ms\nreports: JSON r.json; JUnit r.xml\n',
  )
  expect(formatRunSummary({ verdict: 'FAILED', counts: 'c', slowest: [], reports: [] })).toBe(
    '\n── summary: FAILED ──\nc\nslowest: none timed\nreports: none written (--json, --junit)\n',
  )
})
