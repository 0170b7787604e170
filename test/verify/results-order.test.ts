import { expect, it } from 'vitest'
import { toVerificationOutcomes } from '../../src/verify/results.js'

// verification-results.test.ts reads each kind; this is about their order when an interaction has
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
