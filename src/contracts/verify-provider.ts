import { Verifier } from '@pact-foundation/pact'
import { createProviderStateHandlers } from './provider-states.js'
import { createVerifierOptions } from './verifier-options.js'

/** Options of `verifyProvider`. */
export type VerifyProviderOptions = {
  /** The API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`. */
  readonly providerBaseUrl: string
  /** A key the provider accepts: for the provider states' calls and in place of the pact's placeholder. */
  readonly apiKey: string
  /** Appended to the names of the animals the provider states create. */
  readonly marker?: string
  /** The pact files to verify; the committed one unless given. */
  readonly pactUrls?: readonly string[]
}

/** What a verification found, interaction by interaction. */
export type VerificationReport = {
  readonly passed: boolean
  /** The descriptions of every interaction verified. */
  readonly checked: readonly string[]
  /** The descriptions of the interactions that failed. */
  readonly failed: readonly string[]
  /** The verifier's own report, as it also prints it to stdout. */
  readonly output: string
}

type VerifierJson = { interactionResults?: { description: string; result: string }[]; output?: string[] }

/**
 * Verifies the committed pacts against a running animals service, setting provider states up
 * through its public API, and reports each interaction. Rejects only when the verifier cannot run.
 * @example const report = await verifyProvider({ providerBaseUrl: 'http://127.0.0.1:4010/v1', apiKey })
 */
export async function verifyProvider(options: VerifyProviderOptions): Promise<VerificationReport> {
  const { providerBaseUrl, apiKey, marker, pactUrls } = options
  const stateHandlers = createProviderStateHandlers(
    marker === undefined ? { baseUrl: providerBaseUrl, apiKey } : { baseUrl: providerBaseUrl, apiKey, marker },
  )
  const verifierOptions = createVerifierOptions(
    pactUrls === undefined
      ? { providerBaseUrl, apiKey, stateHandlers, logLevel: 'error' }
      : { providerBaseUrl, apiKey, stateHandlers, pactUrls, logLevel: 'error' },
  )
  // pact-js resolves with the verifier's JSON when every interaction passed and rejects with it
  // as the message when some failed; any other rejection means the verifier did not run.
  const settled = await new Verifier(verifierOptions).verifyProvider().then(
    (json) => ({ passed: true, json }),
    (error: unknown) => ({ passed: false, json: error instanceof Error ? error.message : String(error) }),
  )
  const json = parseVerifierJson(settled.json)
  const results = json.interactionResults ?? []
  return {
    passed: settled.passed,
    checked: results.map((each) => each.description),
    failed: results.filter((each) => each.result !== 'OK').map((each) => each.description),
    output: (json.output ?? []).join('\n'),
  }
}

function parseVerifierJson(text: string): VerifierJson {
  try {
    const parsed = JSON.parse(text) as unknown
    if (typeof parsed === 'object' && parsed !== null && 'interactionResults' in parsed) return parsed as VerifierJson
  } catch {
    // not the verifier's JSON: it did not run
  }
  throw new Error(`the Pact verifier did not run: ${text.slice(0, 500)}`)
}
