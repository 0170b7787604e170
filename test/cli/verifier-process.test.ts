import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { publishingError, runVerifierProcess } from '../../src/cli/verify-process.js'
import type { VerifyProviderOptions } from '../../src/verify/provider.js'
import { strykerChild } from '../support/stryker-bridge.js'

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

// What `verify` sees of its worker, with stand-ins in its place (test/support/stand-in-workers) and
// the built worker itself: what the worker is started with, and what comes back when it cannot report.

const KEY = 'LEAKCHECK-worker-key-5d1c'
const TOKEN = 'LEAKCHECK-worker-token-8e2f'
const OPTIONS = { providerBaseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY } as const
const standIn = (name: string) => fileURLToPath(new URL(`../support/stand-in-workers/${name}`, import.meta.url))
const BUILT_WORKER = fileURLToPath(new URL('../../dist/cli/verify-worker.js', import.meta.url))

async function workerEnvOf(options: VerifyProviderOptions, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const { reply } = await runVerifierProcess({ options }, env, standIn('echo-env.mjs'))
  if (reply.ok) throw new Error('the stand-in answers with its environment as the message')
  return JSON.parse(reply.message) as Record<string, string>
}

it('starts the worker without the key, the Pact Broker variables or usage tracking, and with the broker token only when a broker is used', async () => {
  const env = {
    ANIMALS_MOCK_VERIFY_KEY: KEY,
    PACT_BROKER_TOKEN: TOKEN,
    PACT_BROKER_BASE_URL: 'http://broker.elsewhere.example',
    PACT_BROKER_PUBLISH_VERIFICATION_RESULTS: 'true',
    PACT_BROKER_USERNAME: 'someone',
    PACT_BROKER_PASSWORD: 'LEAKCHECK-worker-password-2b7a',
    PACT_DO_NOT_TRACK: 'false',
    STAND_IN_KEPT: 'kept',
  }
  const dropped = ['ANIMALS_MOCK_VERIFY_KEY', 'PACT_BROKER_BASE_URL', 'PACT_BROKER_PUBLISH_VERIFICATION_RESULTS', 'PACT_BROKER_USERNAME', 'PACT_BROKER_PASSWORD']

  const local = await workerEnvOf(OPTIONS, env)
  expect(local).toMatchObject({ STAND_IN_KEPT: 'kept', PACT_DO_NOT_TRACK: 'true' })
  for (const name of [...dropped, 'PACT_BROKER_TOKEN']) expect(local, name).not.toHaveProperty(name)

  const brokered = await workerEnvOf({ ...OPTIONS, broker: { url: 'http://127.0.0.1:9', consumerVersionSelectors: [{ mainBranch: true }] } }, env)
  expect(brokered).toMatchObject({ STAND_IN_KEPT: 'kept', PACT_DO_NOT_TRACK: 'true', PACT_BROKER_TOKEN: TOKEN })
  for (const name of dropped) expect(brokered, name).not.toHaveProperty(name)
})

/** Runs the stand-in that prints these and ends with this code, never answering. */
const endWithoutReport = (stdout: string, stderr: string, exitCode: number) =>
  runVerifierProcess({ options: OPTIONS }, { STAND_IN_STDOUT: stdout, STAND_IN_STDERR: stderr, STAND_IN_EXIT_CODE: String(exitCode) }, standIn('exits-without-report.mjs'))

it('says the worker ended without a report, naming its exit code and the last error line it printed on stdout or stderr', async () => {
  const crashed = await endWithoutReport('Verifying a pact between a and b\n', '  Error: the native core panicked  \n    at verify (core.js:1:1)\n', 3)
  expect(crashed.reply).toEqual({ ok: false, message: 'the verifier ended (exit code 3) without a report: Error: the native core panicked' })
  // Everything it printed is in the log, which --verbose shows.
  expect(crashed.log).toContain('Verifying a pact between a and b\n')
  expect(crashed.log).toContain('  Error: the native core panicked  \n    at verify (core.js:1:1)\n')

  const logged = await endWithoutReport('12:00:01 ERROR pact_verifier: the provider went away\nVerification complete\n', '', 1)
  expect(logged.reply).toEqual({ ok: false, message: 'the verifier ended (exit code 1) without a report: 12:00:01 ERROR pact_verifier: the provider went away' })

  // No error line: the last line it printed, trimmed.
  const quiet = await endWithoutReport('first\n  last line  \n\n', '', 4)
  expect(quiet.reply).toEqual({ ok: false, message: 'the verifier ended (exit code 4) without a report: last line' })

  const mute = await endWithoutReport('', '', 0)
  expect(mute).toEqual({ reply: { ok: false, message: 'the verifier ended (exit code 0) without a report: no output' }, log: '' })
})

it('answers why when the verifier cannot run at all, from the built worker: a pact that does not exist', async () => {
  const stryker = strykerChild()
  try {
    const missing = '/nowhere/animals-mock/none.json'
    const { reply } = await runVerifierProcess({ options: { ...OPTIONS, pactUrls: [missing], timeoutMs: 2000 } }, { ...process.env, ...stryker.env }, BUILT_WORKER)
    expect(reply).toEqual({
      ok: false,
      message: expect.stringMatching(new RegExp(`^the Pact verifier did not run: .*'${missing}' does not exist, or is not a file or directory$`)),
    })
  } finally {
    stryker.exited()
  }
})
