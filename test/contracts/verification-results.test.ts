import { expect, it } from 'vitest'
import { toVerificationOutcomes } from '../../src/contracts/verification-results.js'

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
