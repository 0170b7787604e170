import { expect, it } from 'vitest'
import { publishingError } from '../../src/cli/verifier-process.js'

// Pact's verifier logs a refused publication and carries on; verify reads the reason from its log.
const REFUSED =
  "2026-11-25T13:45:52.302552Z ERROR ThreadId(03) pact_verifier: Publishing of verification results failed with an error: IO Error - Request to pact broker path '/x/verification-results' failed: 403 Forbidden. URL: 'http://127.0.0.1:40673'  "

it('finds why publishing failed in the verifier log: the text after "with an error: "', () => {
  expect(publishingError(`  a request to list animals (OK)\n${REFUSED}\nVerification complete\n`)).toBe(
    "IO Error - Request to pact broker path '/x/verification-results' failed: 403 Forbidden. URL: 'http://127.0.0.1:40673'",
  )
})

it('takes the line from ERROR on when it names no error text, and only the first such line', () => {
  expect(publishingError('12:00 ERROR pact_verifier: could not Publish results  \n12:01 ERROR publish again')).toBe('ERROR pact_verifier: could not Publish results')
})

it('finds nothing in a log without an ERROR about publishing', () => {
  expect(publishingError('')).toBeUndefined()
  expect(publishingError('INFO publishing verification results\nERROR pact_verifier: the provider went away')).toBeUndefined()
  expect(publishingError('error: publishing failed with an error: lower-case')).toBeUndefined()
})
