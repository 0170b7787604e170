import { expect, it } from 'vitest'
import { FakeInputError } from '../../src/service/errors.js'
import { MAX_FORCED_RULES, parseForcedRule } from '../../src/fake/forced.js'
import { createTestFake } from '../support/core-fake.js'

const refusal = (input: unknown) => {
  const parsed = parseForcedRule(input)
  return parsed.ok ? 'accepted' : parsed.error.message
}

it('refuses each malformed forced rule with a message naming what is wrong', () => {
  const cases: [unknown, string][] = [
    [null, 'A forced rule must be a JSON object.'],
    [[{ status: 503 }], 'A forced rule must be a JSON object.'],
    ['503', 'A forced rule must be a JSON object.'],
    [{ status: 503, stauts: 1, when: 2 }, "Unknown field(s) 'stauts', 'when'."],
    [{ status: 503, method: 'GET /pets' }, "Field 'method' must be an HTTP method such as GET."],
    [{ status: 503, method: 'G'.repeat(21) }, "Field 'method' must be an HTTP method such as GET."],
    [{ status: 503, method: 7 }, "Field 'method' must be an HTTP method such as GET."],
    [{ status: 503, path: 'pets' }, "Field 'path' must start with / (for example /pets or /pets/*)."],
    [{ status: 503, path: `/${'p'.repeat(1000)}` }, "Field 'path' must start with / (for example /pets or /pets/*)."],
    [{ status: 503, times: 0 }, "Field 'times' must be a whole number from 1 to 1000000."],
    [{ status: 503, times: 1_000_001 }, "Field 'times' must be a whole number from 1 to 1000000."],
    [{ status: 503, times: 1.5 }, "Field 'times' must be a whole number from 1 to 1000000."],
    [{ status: 399 }, "Field 'status' must be an error status from 400 to 599."],
    [{ status: 600 }, "Field 'status' must be an error status from 400 to 599."],
    [{ status: 503, code: '' }, "Field 'code' must be a string of 1 to 100 characters."],
    [{ status: 503, code: 'c'.repeat(101) }, "Field 'code' must be a string of 1 to 100 characters."],
    [{ status: 503, code: 5 }, "Field 'code' must be a string of 1 to 100 characters."],
    [{ status: 503, message: 'm'.repeat(1001) }, "Field 'message' must be a string of at most 1000 characters."],
    [{ status: 503, message: false }, "Field 'message' must be a string of at most 1000 characters."],
    [{ delayMs: -1 }, "Field 'delayMs' must be a whole number from 0 to 300000."],
    [{ delayMs: 300_001 }, "Field 'delayMs' must be a whole number from 0 to 300000."],
    [{ drop: 'yes' }, "Field 'drop' must be true or false."],
    [{ drop: false }, "A forced rule needs 'status', 'delayMs' or 'drop'."],
    [{ times: 2 }, "A forced rule needs 'status', 'delayMs' or 'drop'."],
    [{ status: 503, drop: true }, "'status' and 'drop' exclude each other."],
    [{ delayMs: 10, code: 'slow' }, "'code' and 'message' need a 'status'."],
    [{ drop: true, message: 'gone' }, "'code' and 'message' need a 'status'."],
  ]
  for (const [input, message] of cases) expect(refusal(input), JSON.stringify(input)).toBe(message)
})

it('accepts every field at its bounds', () => {
  const accepted: unknown[] = [
    { status: 400, times: 1, method: 'g'.repeat(20), path: `/${'p'.repeat(999)}` },
    { status: 599, times: 1_000_000, code: 'c'.repeat(100), message: 'm'.repeat(1000) },
    { status: 503, message: '' },
    { delayMs: 0 },
    { delayMs: 300_000, drop: true },
    { drop: true },
  ]
  for (const input of accepted) expect(refusal(input), JSON.stringify(input)).toBe('accepted')
})

it(`keeps at most ${MAX_FORCED_RULES} rules in force: the next is refused with rules_full (507), and room comes back`, () => {
  const fake = createTestFake()
  for (let i = 0; i < MAX_FORCED_RULES; i++) fake.force({ status: 503 })
  const full = (() => {
    try {
      fake.force({ status: 503 })
    } catch (error) {
      return error
    }
    return undefined
  })()
  expect(full).toBeInstanceOf(FakeInputError)
  expect(full).toMatchObject({ code: 'rules_full', status: 507, message: `At most ${MAX_FORCED_RULES} forced rules can be in force; remove some first.` })
  fake.unforce(1)
  expect(fake.force({ status: 503 }).id).toBe(MAX_FORCED_RULES + 1)
})
