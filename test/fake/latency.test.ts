import { expect, it } from 'vitest'
import { parseLatency, pickDelay, toLatencySpec } from '../../src/fake/latency.js'
import { NO_LATENCY } from '../../src/store/scope.js'

const refusal = (input: unknown) => {
  const result = parseLatency(input)
  return result.ok ? 'accepted' : `${result.error.code}: ${result.error.message}`
}
const RANGE_RULE = "invalid_body: Fields 'minMs' and 'maxMs' must be whole numbers from 0 to 300000, minMs <= maxMs."
const MS_RULE = "invalid_body: Field 'ms' must be a whole number from 0 to 300000."

it('reads none, a fixed time and a range, each up to exactly 300000 ms', () => {
  expect(parseLatency({})).toEqual({ ok: true, value: { kind: 'none' } })
  expect(parseLatency({ ms: 0 })).toEqual({ ok: true, value: { kind: 'none' } })
  expect(parseLatency({ ms: 1 })).toEqual({ ok: true, value: { kind: 'fixed', ms: 1 } })
  expect(parseLatency({ ms: 300_000 })).toEqual({ ok: true, value: { kind: 'fixed', ms: 300_000 } })
  expect(parseLatency({ minMs: 0, maxMs: 300_000 })).toEqual({ ok: true, value: { kind: 'range', minMs: 0, maxMs: 300_000 } })
  expect(parseLatency({ minMs: 7, maxMs: 7 })).toEqual({ ok: true, value: { kind: 'range', minMs: 7, maxMs: 7 } })
})

it('refuses what is not a latency setting, saying which rule it breaks', () => {
  const shape = 'invalid_body: A latency setting must be a JSON object: {"ms": n} or {"minMs": a, "maxMs": b}.'
  expect([null, [], 5, 'ms'].map(refusal)).toEqual([shape, shape, shape, shape])
  expect(refusal({ ms: 1, delay: 2, jitter: 3 })).toBe("invalid_body: Unknown field(s) 'delay', 'jitter'.")
  const both = "invalid_body: Give either 'ms' or 'minMs' and 'maxMs', not both."
  expect([{ ms: 1, minMs: 1 }, { ms: 1, maxMs: 1 }, { ms: 0, minMs: 0, maxMs: 0 }].map(refusal)).toEqual([both, both, both])
  expect([{ ms: -1 }, { ms: 300_001 }, { ms: 1.5 }, { ms: '5' }].map(refusal)).toEqual([MS_RULE, MS_RULE, MS_RULE, MS_RULE])
})

it('needs both ends of a range, whole, within bounds and in order', () => {
  const ranges = [{ minMs: 5 }, { maxMs: 5 }, { minMs: -1, maxMs: 5 }, { minMs: 1, maxMs: 300_001 }, { minMs: 6, maxMs: 5 }, { minMs: 0.5, maxMs: 5 }, { minMs: 1, maxMs: '5' }]
  expect(ranges.map(refusal)).toEqual(ranges.map(() => RANGE_RULE))
})

it('shows a setting as it was written, and picks delays within the range, both ends included', () => {
  expect(toLatencySpec(NO_LATENCY)).toEqual({})
  expect(toLatencySpec({ kind: 'fixed', ms: 250 })).toEqual({ ms: 250 })
  expect(toLatencySpec({ kind: 'range', minMs: 100, maxMs: 900 })).toEqual({ minMs: 100, maxMs: 900 })
  const range = { kind: 'range', minMs: 100, maxMs: 102 } as const
  expect([0, 0.34, 0.67, 0.999999].map((r) => pickDelay(range, () => r))).toEqual([100, 101, 102, 102])
  expect(pickDelay({ kind: 'fixed', ms: 250 }, () => 0.5)).toBe(250)
  expect(pickDelay(NO_LATENCY, () => 0.5)).toBe(0)
})
