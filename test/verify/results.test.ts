import { expect, it } from 'vitest'
import { stripAnsi, toVerificationOutcomes } from '../../src/verify/results.js'

const bold = (text: string): string => `\u001b[1m${text}\u001b[0m`

// The shape of Pact's verifier JSON (pact_verifier 1.3), two consumers, as `verifyProvider` receives it.
const VERIFIER_JSON = {
  result: false,
  interactionResults: [
    { description: 'a request to add an animal', duration: '69ms', result: 'Error' },
    { description: 'a request to get an animal', duration: '47ms', result: 'Error' },
    { description: 'a request to add an animal', duration: '12ms', result: 'OK' },
  ],
  errors: [
    {
      interaction: 'Verifying a pact between web and animals-service - a request to add an animal',
      mismatch: { type: 'mismatches', mismatches: [{ type: 'BodyMismatch', path: '$.id', expected: '1', actual: '"1"', mismatch: 'Expected "1" to be an integer' }, { type: 'StatusMismatch', expected: 201, actual: 200, mismatch: 'expected 201 but was 200' }] },
    },
    {
      interaction: 'Verifying a pact between web and animals-service Given an animal exists And it is sold - a request to get an animal',
      mismatch: { type: 'error', message: 'error sending request for url (http://127.0.0.1:40001/pets/4242)' },
    },
    { interaction: 'Failed to load pact', mismatch: { type: 'error', message: 'No pacts found for provider' } },
  ],
  output: [
    `\nVerifying a pact between ${bold('web')} and ${bold('animals-service')}`,
    '',
    '  a request to add an animal (1ms loading, 69ms verification)',
    '    returns a response which',
    '',
    '  a request to get an animal (1ms loading, 47ms verification)',
    '     Given an animal exists',
    '     And it is sold',
    '    returns a response which',
    `\nVerifying a pact between ${bold('mobile')} and ${bold('animals-service')}`,
    '  a request to add an animal (1ms loading, 12ms verification)',
    '    returns a response which',
  ],
}

it('gives each interaction its consumer, provider states, result, duration and mismatches, status first', () => {
  const { interactions } = toVerificationOutcomes(VERIFIER_JSON, { providerBaseUrl: 'https://staging.example/v1', timeoutMs: 500 })
  expect(interactions).toEqual([
    {
      consumer: 'web',
      description: 'a request to add an animal',
      providerStates: [],
      passed: false,
      durationMs: 69,
      mismatches: [
        { kind: 'status', message: 'expected 201 but was 200', expected: '201', actual: '200' },
        { kind: 'body', key: '$.id', message: 'Expected "1" to be an integer', expected: '1', actual: '"1"' },
      ],
    },
    {
      consumer: 'web',
      description: 'a request to get an animal',
      providerStates: ['an animal exists', 'it is sold'],
      passed: false,
      durationMs: 47,
      // The verifier names its own proxy; the report names the provider's address.
      mismatches: [{ kind: 'error', message: 'no answer from https://staging.example/v1/pets/4242 within 500 ms (timed out, or the connection failed)' }],
    },
    { consumer: 'mobile', description: 'a request to add an animal', providerStates: [], passed: true, durationMs: 12, mismatches: [] },
  ])
})

it('keeps failures not tied to an interaction as problems', () => {
  const { problems } = toVerificationOutcomes(VERIFIER_JSON, { providerBaseUrl: 'https://staging.example/v1' })
  expect(problems).toEqual(['Failed to load pact: No pacts found for provider'])
})

it('reads the mismatches of a failed pending interaction, which the verifier lists apart from the other errors', () => {
  // As pact_verifier 1.3 reports an interaction a V4 pact marks pending: the run passes ("result": true).
  const pending = {
    result: true,
    errors: [],
    pendingErrors: [
      {
        interaction: 'Verifying a pact between one-off and animals-service - a pending list',
        mismatch: { type: 'mismatches', mismatches: [{ type: 'StatusMismatch', expected: 200, actual: 401, mismatch: 'expected 200 but was 401' }] },
      },
    ],
    interactionResults: [{ description: 'a pending list', duration: '55ms', interactionKey: 'k1', result: 'Error' }],
    output: [`Verifying a pact between ${bold('one-off')} and ${bold('animals-service')}`, '  a pending list (0s loading, 55ms verification) \u001b[33m[PENDING]\u001b[0m'],
  }
  expect(toVerificationOutcomes(pending, { providerBaseUrl: 'x' })).toEqual({
    interactions: [
      {
        consumer: 'one-off',
        description: 'a pending list',
        providerStates: [],
        passed: false,
        durationMs: 55,
        mismatches: [{ kind: 'status', message: 'expected 200 but was 401', expected: '200', actual: '401' }],
      },
    ],
    problems: [],
  })
})

it('reads a report without output or colours, and nothing from what is not a report', () => {
  const plain = {
    interactionResults: [{ description: 'a', result: 'OK' }],
    output: ['Verifying a pact between web app and animals-service', '  a (1ms loading, 2ms verification)'],
  }
  expect(toVerificationOutcomes(plain, { providerBaseUrl: 'x' }).interactions).toEqual([
    { consumer: 'web app', description: 'a', providerStates: [], passed: true, mismatches: [] },
  ])
  expect(toVerificationOutcomes('not json', { providerBaseUrl: 'x' })).toEqual({ interactions: [], problems: [] })
})

const CONTEXT = { providerBaseUrl: 'https://staging.example/v1' }
const failing = (interaction: string, mismatch: unknown) => ({ interaction, mismatch })
const header = (consumer: string) => `Verifying a pact between ${bold(consumer)} and ${bold('animals-service')}`

it('reads every kind of mismatch the verifier reports, with its key from the key, path or parameter', () => {
  const label = 'Verifying a pact between web and animals-service - a'
  const json = {
    interactionResults: [{ description: 'a', result: 'Error' }],
    errors: [
      failing(label, {
        type: 'mismatches',
        mismatches: [
          { type: 'MetadataMismatch', key: 'contentType', expected: 'a', actual: 'b', mismatch: 'metadata differs' },
          { type: 'BodyTypeMismatch', expected: 'application/json', actual: 'text/plain', mismatch: 'body type differs' },
          { type: 'HeaderMismatch', key: 'Content-Type', expected: 'application/json', actual: 'text/html', mismatch: 'header differs' },
          { type: 'QueryMismatch', parameter: 'limit', expected: ['3'], actual: null, mismatch: 'query differs' },
          { type: 'PathMismatch', expected: '/pets', actual: '/animals', mismatch: 'path differs' },
          { type: 'MethodMismatch', expected: 'GET', actual: 'POST', mismatch: 'method differs' },
          { type: 'StatusMismatch', actual: 500, mismatch: 'no status expected' },
          { type: 'SomethingNew', path: '$.x', expected: { a: 1 }, actual: 2 },
          null,
          ['not', 'a', 'mismatch'],
          'not a mismatch',
        ],
      }),
    ],
    output: [header('web'), '  a (1ms loading, 2ms verification)'],
  }
  expect(toVerificationOutcomes(json, CONTEXT).interactions[0]?.mismatches).toStrictEqual([
    { kind: 'method', message: 'method differs', expected: 'GET', actual: 'POST' },
    { kind: 'path', message: 'path differs', expected: '/pets', actual: '/animals' },
    { kind: 'query', key: 'limit', message: 'query differs', expected: '["3"]' },
    { kind: 'status', message: 'no status expected', actual: '500' },
    { kind: 'header', key: 'Content-Type', message: 'header differs', expected: 'application/json', actual: 'text/html' },
    { kind: 'body', message: 'body type differs', expected: 'application/json', actual: 'text/plain' },
    { kind: 'body', key: '$.x', message: 'body mismatch', expected: '{"a":1}', actual: '2' },
    { kind: 'metadata', key: 'contentType', message: 'metadata differs', expected: 'a', actual: 'b' },
  ])
})

it('says which request of the provider got no answer, or that a provider state could not be set up', () => {
  const label = 'Verifying a pact between web and animals-service - a'
  const outcome = (message: unknown, timeoutMs?: number) =>
    toVerificationOutcomes(
      { interactionResults: [{ description: 'a', result: 'Error' }], errors: [failing(label, { type: 'error', ...(message === undefined ? {} : { message }) })] },
      timeoutMs === undefined ? CONTEXT : { ...CONTEXT, timeoutMs },
    ).interactions[0]?.mismatches.map((each) => each.message)
  expect(outcome('error sending request for url (http://127.0.0.1:40001/pets?limit=3): connection closed')).toEqual([
    'no answer from https://staging.example/v1/pets (timed out, or the connection failed)',
  ])
  expect(outcome('Request failed (proxy): error sending request for url (http://127.0.0.1:40001/pets/4242)', 300)).toEqual([
    'no answer from https://staging.example/v1/pets/4242 within 300 ms (timed out, or the connection failed)',
  ])
  expect(outcome('error sending request for url (http://127.0.0.1:40001/_pactSetup)', 300)).toEqual([
    'the provider state could not be set up within 300 ms: its calls to the provider failed or took too long',
  ])
  expect(outcome('error sending request for url (http://127.0.0.1:40001/_pactSetup)')).toEqual([
    'the provider state could not be set up: its calls to the provider failed or took too long',
  ])
  // Anything else is the verifier's own sentence.
  expect(outcome('error sending request for url (not a url)')).toEqual(['error sending request for url (not a url)'])
  expect(outcome('error sending request for url (http://127.0.0.1:1/pets')).toEqual(['error sending request for url (http://127.0.0.1:1/pets'])
  expect(outcome('Body is not JSON (line 1)')).toEqual(['Body is not JSON (line 1)'])
  expect(outcome('failed to parse the response: http://127.0.0.1:40001/pets (not JSON)')).toEqual(['failed to parse the response: http://127.0.0.1:40001/pets (not JSON)'])
  expect(outcome(undefined)).toEqual(['unknown error'])
})

it('keeps the provider states given before the response, not lines of the response that look alike', () => {
  const json = {
    interactionResults: [
      { description: 'a', result: 'OK' },
      { description: 'b (with parens)', result: 'OK' },
    ],
    output: [
      `${header('web')}\n\n  a (0ms loading, 3ms verification)\n     Given one\n     And two\n    returns a response which\n      And not a state\n     Given not one either`,
      '  b (with parens)',
      '     Given three',
    ],
  }
  expect(toVerificationOutcomes(json, CONTEXT).interactions).toEqual([
    { consumer: 'web', description: 'a', providerStates: ['one', 'two'], passed: true, mismatches: [] },
    { consumer: 'web', description: 'b (with parens)', providerStates: ['three'], passed: true, mismatches: [] },
  ])
})

it('reads the consumer from any bold header, and from a plain one at its last " and "', () => {
  const of = (line: string) =>
    toVerificationOutcomes({ interactionResults: [{ description: 'a', result: 'OK' }], output: [line, '  a (1ms loading, 2ms verification)'] }, CONTEXT).interactions[0]
  expect(of(`Verifying a pact between \u001b[1mcats and dogs\u001b[0m and \u001b[1manimals-service\u001b[0m`)?.consumer).toBe('cats and dogs')
  // Bold closed by "normal intensity" rather than a reset: read without the colours.
  expect(of('Verifying a pact between \u001b[1mweb\u001b[22m and \u001b[1;4manimals-service\u001b[22m')?.consumer).toBe('web')
  expect(of('Verifying a pact between cats and dogs and animals-service')?.consumer).toBe('cats and dogs')
  expect(of('\u001b[32mVerifying a pact between web and animals-service\u001b[0m')?.consumer).toBe('web')
  expect(of('Verifying a pact between web')).toStrictEqual({ description: 'a', providerStates: [], passed: true, mismatches: [] })
  // The names are read from the bold, whatever else the line holds.
  expect(of('Verifying a pact between \u001b[1mweb\u001b[0m and \u001b[1mcats and dogs\u001b[0m')?.consumer).toBe('web')
})

it('matches each result to the next interaction of that description in the printed report', () => {
  const json = {
    interactionResults: [
      { description: 'a', result: 'OK' },
      { description: 'not printed', result: 'OK' },
      { description: 'a', result: 'OK' },
    ],
    output: [header('web'), '  a (1ms loading, 2ms verification)', '     Given first', header('mobile'), '  a (1ms loading, 2ms verification)', '     Given second'],
  }
  expect(toVerificationOutcomes(json, CONTEXT).interactions).toStrictEqual([
    { consumer: 'web', description: 'a', providerStates: ['first'], passed: true, mismatches: [] },
    { description: 'not printed', providerStates: [], passed: true, mismatches: [] },
    { consumer: 'mobile', description: 'a', providerStates: ['second'], passed: true, mismatches: [] },
  ])
})

it('gives an interaction only the errors labelled with its consumer and description', () => {
  const json = {
    interactionResults: [
      { description: 'an animal', result: 'Error' },
      { description: 'get an animal', result: 'OK' },
    ],
    errors: [
      failing('Verifying a pact between web and animals-service - an animal', { type: 'error', message: 'one' }),
      failing('Verifying a pact between webshop and animals-service - an animal', { type: 'error', message: 'other consumer' }),
      failing('Verifying a pact between web and animals-service - an animal (again)', { type: 'error', message: 'other description' }),
      failing('Some other report - an animal', { type: 'mismatches', mismatches: [] }),
      failing('Verifying a pact between web and animals-service - missing', { type: 'mismatches', mismatches: [] }),
      { mismatch: { type: 'error', message: 'no label' } },
      'not an error',
    ],
    output: [header('web'), '  an animal (1ms loading, 2ms verification)', '  get an animal (1ms loading, 2ms verification)'],
  }
  const { interactions, problems } = toVerificationOutcomes(json, CONTEXT)
  expect(interactions.map((each) => each.mismatches)).toEqual([[{ kind: 'error', message: 'one' }], []])
  expect(problems).toEqual([
    'Verifying a pact between web and animals-service - an animal (again): other description',
    'Some other report - an animal',
    'Verifying a pact between web and animals-service - missing',
  ])
})

it('takes only results with a description and a result, and a duration only in milliseconds', () => {
  const json = {
    interactionResults: [
      { description: 'a', result: 'OK', duration: '2s' },
      { description: 'b', result: 'OK', duration: 'fastms' },
      { description: 'c', result: 'Pending', duration: '0ms' },
      { description: 'd', duration: '1ms' },
      { result: 'OK' },
      { description: 7, result: 'OK' },
      null,
    ],
    errors: {},
    output: 'not a list',
  }
  expect(toVerificationOutcomes(json, CONTEXT).interactions).toStrictEqual([
    { description: 'a', providerStates: [], passed: true, mismatches: [] },
    { description: 'b', providerStates: [], passed: true, mismatches: [] },
    { description: 'c', providerStates: [], passed: false, durationMs: 0, mismatches: [] },
  ])
  expect(toVerificationOutcomes([{ interactionResults: [] }], CONTEXT)).toEqual({ interactions: [], problems: [] })
  expect(toVerificationOutcomes(null, CONTEXT)).toEqual({ interactions: [], problems: [] })
})

it('removes terminal colours, their parameters included', () => {
  expect(stripAnsi('\u001b[1;31mFAIL\u001b[0m \u001b[38;5;246mgrey\u001b[m')).toBe('FAIL grey')
})

it('reads a mismatch of a type it does not know as a body mismatch, even one named like an object\'s own property', () => {
  const json = {
    interactionResults: [{ description: 'a', result: 'Error' }],
    errors: [failing('Verifying a pact between web and animals-service - a', { type: 'mismatches', mismatches: [{ type: 'toString', mismatch: 'm' }, { type: 'constructor' }] })],
  }
  expect(toVerificationOutcomes(json, CONTEXT).interactions[0]?.mismatches).toEqual([
    { kind: 'body', message: 'm' },
    { kind: 'body', message: 'body mismatch' },
  ])
})

it('skips lines that are none of the report\'s own among an interaction\'s, and reads interactions printed without a header', () => {
  const json = {
    interactionResults: [
      { description: 'a', result: 'OK' },
      { description: 'ends-with-verification)', result: 'OK' },
    ],
    output: [
      '  a (1ms loading, 2ms verification)',
      '2030-12-05T09:30:00Z WARN pact_verifier: a log line',
      '',
      '  ',
      '     Given one',
      42,
      '  ends-with-verification)',
      '     Given two',
    ],
  }
  expect(toVerificationOutcomes(json, CONTEXT).interactions).toStrictEqual([
    { description: 'a', providerStates: ['one'], passed: true, mismatches: [] },
    { description: 'ends-with-verification)', providerStates: ['two'], passed: true, mismatches: [] },
  ])
})

it('joins the details of a problem outside the interactions, and names one without details alone', () => {
  const json = {
    interactionResults: [],
    errors: [
      failing('Failed to load pact', { type: 'mismatches', mismatches: [{ type: 'StatusMismatch', mismatch: 'one' }, { type: 'BodyMismatch', mismatch: 'two' }] }),
      failing('Failed to fetch pacts', null),
      failing('Failed to publish', 'refused'),
    ],
  }
  expect(toVerificationOutcomes(json, CONTEXT).problems).toEqual(['Failed to load pact: one; two', 'Failed to fetch pacts', 'Failed to publish'])
})

// The tests above read each kind; this one is about their order when an interaction has
// an error as well as mismatches (two entries of the verifier's `errors` naming it): the error,
// which explains the rest, comes first.
it('lists an interaction\'s error before its mismatches, and the mismatches from method to metadata', () => {
  const label = 'Verifying a pact between web and animals-service - a'
  const json = {
    interactionResults: [{ description: 'a', result: 'Error' }],
    errors: [
      {
        interaction: label,
        mismatch: {
          type: 'mismatches',
          mismatches: [
            { type: 'MetadataMismatch', mismatch: 'metadata' },
            { type: 'BodyMismatch', mismatch: 'body' },
            { type: 'HeaderMismatch', mismatch: 'header' },
            { type: 'StatusMismatch', mismatch: 'status' },
            { type: 'QueryMismatch', mismatch: 'query' },
            { type: 'PathMismatch', mismatch: 'path' },
            { type: 'MethodMismatch', mismatch: 'method' },
          ],
        },
      },
      { interaction: label, mismatch: { type: 'error', message: 'the provider went away' } },
    ],
    output: ['Verifying a pact between web and animals-service', '  a (1ms loading, 2ms verification)'],
  }
  const [outcome] = toVerificationOutcomes(json, { providerBaseUrl: 'https://staging.example/v1' }).interactions
  expect(outcome?.mismatches.map((each) => [each.kind, each.message])).toEqual([
    ['error', 'the provider went away'],
    ['method', 'method'],
    ['path', 'path'],
    ['query', 'query'],
    ['status', 'status'],
    ['header', 'header'],
    ['body', 'body'],
    ['metadata', 'metadata'],
  ])
})
