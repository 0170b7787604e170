import { expect, it } from 'vitest'
import { compareOutcome, type Observed } from '../../src/parity/compare.js'
import { PARITY_PROBES, type Probe } from '../../src/parity/probes.js'

const probe = (id: string): Probe => {
  const found = PARITY_PROBES.find((each) => each.id === id)
  if (found === undefined) throw new Error(`no probe ${id}`)
  return found
}
const list = (status: number, length: number): Observed => ({
  ok: true,
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(Array.from({ length }, (_, index) => ({ id: index + 1, name: `n${index}`, categoryId: 1 }))),
})

// The spec pins how many animals a list holds only for its 200; under another status both
// answers are wrong already, and how long their lists are is left open, with the reason shown.
it('calls lists of different lengths open, saying the spec leaves it open, when both sides answer the same status other than 200', () => {
  for (const status of [206, 503]) {
    const findings = compareOutcome({ probe: probe('list-limit-3'), fake: list(status, 3), deployment: list(status, 2) })
    expect(findings, String(status)).toContainEqual({
      probe: 'list-limit-3',
      verdict: 'open',
      aspect: 'count',
      fake: '3 animals',
      deployment: '2 animals',
      reason: 'the spec leaves this open',
    })
    expect(findings.find((finding) => finding.aspect === 'status'), String(status)).toMatchObject({ verdict: 'contradiction', side: 'both' })
  }
})
