import { coreOf } from '../../src/fake/assemble-fake.js'
import { describe, expect, it } from 'vitest'
import { createControl } from '../../src/fake/control.js'
import { forcedErrorResponse, parseForcedRule } from '../../src/fake/forced.js'
import { MAX_FORCED_RULES } from '../../src/store/scope.js'
import { FakeInputError } from '../../src/service/errors.js'
import type { PlainRequest } from '../../src/service/http.js'
import { createTestFake, plainRequest } from '../support/core-fake.js'

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

describe('a forced rule with a method of the wrong type', () => {
  // A method that is JSON but no string: a regular expression would test it as the text "null" or
  // "true", which looks like a method.
  const control = (fields: Partial<PlainRequest>) => plainRequest({ basePath: '/__control', path: '/', ...fields })
  const postRule = (rule: unknown) =>
    control({ method: 'POST', path: '/forced', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(rule)) })

  async function ask(api: ReturnType<typeof createControl>, request: PlainRequest) {
    const response = await api.handle(request)
    return { status: response.status, body: response.body === undefined || response.body === '' ? undefined : JSON.parse(response.body) }
  }

  it('refuses a forced rule whose method is null or true with 400 and the Error body, keeping the rules in force as they were', async () => {
    const api = createControl({ core: coreOf(createTestFake()) })
    expect((await ask(api, postRule({ method: 'GET', path: '/pets', status: 503 }))).status).toBe(201)
    const before = await ask(api, control({ path: '/forced' }))
    expect(before.body).toMatchObject({ rules: [{ method: 'GET', path: '/pets', status: 503 }] })
    for (const method of [null, true]) {
      expect(await ask(api, postRule({ method, path: '/pets', status: 500 })), String(method)).toEqual({
        status: 400,
        body: { code: 'invalid_body', message: "Field 'method' must be an HTTP method such as GET.", status: 400 },
      })
    }
    expect(await ask(api, control({ path: '/forced' }))).toEqual(before)
  })
})

// A forced response without a code gets the usual one for its status (docs/control-api.md,
// docs/prefer.md), and a status with no usual code an `error_<status>` one.
it('gives a forced error without a code the usual code of its status, or error_<status>', () => {
  const codeOf = (status: number): unknown => (JSON.parse(forcedErrorResponse(status, 'm').body ?? '') as { code: unknown }).code
  const statuses = [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504, 418, 599]
  expect(Object.fromEntries(statuses.map((status) => [status, codeOf(status)]))).toEqual({
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    408: 'request_timeout',
    409: 'conflict',
    422: 'unprocessable_entity',
    429: 'too_many_requests',
    500: 'internal_error',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
    418: 'error_418',
    599: 'error_599',
  })
  expect(JSON.parse(forcedErrorResponse(503, 'm', 'maintenance').body ?? '')).toEqual({ code: 'maintenance', message: 'm', status: 503 })
})
