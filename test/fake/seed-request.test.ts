import { expect, it } from 'vitest'
import { MAX_SEED_COUNT, parseSeedRequest } from '../../src/fake/seed-request.js'
import { parseStatusMix } from '../../src/seed/status-mix.js'

const outcome = (input: unknown) => {
  const parsed = parseSeedRequest(input)
  if (parsed.ok) return parsed.value
  expect(parsed.error.code).toBe('invalid_body')
  return parsed.error.message
}

it('reads a seed request: a count, and a seed and a status mix when given', () => {
  // toStrictEqual: a seed or a mix not given is left out, not present as undefined.
  expect(outcome({ count: 1 })).toStrictEqual({ count: 1 })
  expect(outcome({ count: MAX_SEED_COUNT, seed: 0 })).toStrictEqual({ count: MAX_SEED_COUNT, seed: 0 })
  expect(outcome({ count: 3, seed: 4_294_967_295, statusMix: { sold: 2 } })).toEqual({
    count: 3,
    seed: 4_294_967_295,
    statusMix: { available: 0, pending: 0, sold: 2, none: 0 },
  })
  expect(outcome({ count: 3, statusMix: { none: 1, available: 1_000_000 } })).toStrictEqual({
    count: 3,
    statusMix: { available: 1_000_000, pending: 0, sold: 0, none: 1 },
  })
})

it('refuses a bad seed request with a message naming the field and its range', () => {
  const cases: [unknown, string][] = [
    [[], 'The seed request must be a JSON object such as {"count": 100}.'],
    [null, 'The seed request must be a JSON object such as {"count": 100}.'],
    [5, 'The seed request must be a JSON object such as {"count": 100}.'],
    [{ count: 1, extra: 1, more: 2 }, "Unknown field(s) 'extra', 'more'."],
    [{ count: 0 }, "Field 'count' must be a whole number from 1 to 1000000."],
    [{ count: MAX_SEED_COUNT + 1 }, "Field 'count' must be a whole number from 1 to 1000000."],
    [{ count: 1, seed: -1 }, "Field 'seed' must be a whole number from 0 to 4294967295."],
    [{ count: 1, seed: 2 ** 32 }, "Field 'seed' must be a whole number from 0 to 4294967295."],
    [{ count: 1, seed: 1.5 }, "Field 'seed' must be a whole number from 0 to 4294967295."],
    [{ count: 1, statusMix: { lost: 1 } }, `Field 'statusMix': "lost" is not one of available, pending, sold, none`],
    [{ count: 1, statusMix: {} }, "Field 'statusMix': at least one weight must be above 0"],
  ]
  for (const [input, message] of cases) expect(outcome(input), JSON.stringify(input)).toBe(message)
})

it('reads a status mix of whole weights up to 1000000, one above 0, and says what is wrong otherwise', () => {
  const expected = 'it maps available, pending, sold, none to whole-number weights up to 1000000, one above 0'
  for (const value of [null, [1], 'sold']) expect(parseStatusMix(value)).toEqual({ ok: false, error: expected })
  expect(parseStatusMix({ sold: 1_000_001 })).toEqual({ ok: false, error: 'the weight of sold must be a whole number from 0 to 1000000' })
  expect(parseStatusMix({ pending: -1 })).toEqual({ ok: false, error: 'the weight of pending must be a whole number from 0 to 1000000' })
  expect(parseStatusMix({ available: 0.5 })).toEqual({ ok: false, error: 'the weight of available must be a whole number from 0 to 1000000' })
  expect(parseStatusMix({ available: 0, sold: 0 })).toEqual({ ok: false, error: 'at least one weight must be above 0' })
  expect(parseStatusMix({ pending: 1 })).toEqual({ ok: true, value: { available: 0, pending: 1, sold: 0, none: 0 } })
})
