import { setTimeout as delay } from 'node:timers/promises'
import { Verifier } from '@pact-foundation/pact'
import { describeFetchError } from '../client/fetch-errors.js'
import { createProviderStateHandlers, type ProviderStateHandler } from '../deployment/provider-states.js'
import { idReuses, watchCreationsFromTheFirst } from '../deployment/creations.js'
import { type InteractionOutcome, toVerificationOutcomes } from './results.js'
import { type BrokerOptions, createVerifierOptions } from './options.js'
import { definedOnly } from '../service/defined-only.js'

/** Options of `verifyProvider`. */
export type VerifyProviderOptions = {
  /** The API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`. */
  readonly providerBaseUrl: string
  /** A key the provider accepts: for the provider states' calls and in place of the pact's placeholder. */
  readonly apiKey: string
  /** Appended to the names of the animals the provider states and the pact's requests create. */
  readonly marker?: string
  /** The pact files to verify; the committed one unless given or a broker is. */
  readonly pactUrls?: readonly string[]
  /** Fetch the pacts from a Pact Broker, and maybe publish the results there; its token comes from `PACT_BROKER_TOKEN`. */
  readonly broker?: BrokerOptions
  /** Gives up on each request, and each provider state's setup, after this many milliseconds. */
  readonly timeoutMs?: number
}

/** A provider state whose setup failed: Pact's proxy swallows the error, so it is kept here. */
export type StateError = { readonly state: string; readonly message: string }

/** What a verification found, interaction by interaction. */
export type VerificationReport = {
  readonly passed: boolean
  /** The descriptions of every interaction verified. */
  readonly checked: readonly string[]
  /** The descriptions of the interactions that failed. */
  readonly failed: readonly string[]
  /** Each interaction with its consumer, provider states, result and mismatches. */
  readonly interactions: readonly InteractionOutcome[]
  /** Failures not tied to an interaction, e.g. a pact the verifier could not load. */
  readonly problems: readonly string[]
  readonly stateErrors: readonly StateError[]
  /** The verifier's own report, as it also prints it to stdout. */
  readonly output: string
}

/** How long a report waits for provider states still being set up when no timeout is given. */
const SETUP_WAIT_MS = 30_000

type VerifierJson = { interactionResults?: unknown; output?: unknown }

/**
 * Verifies pacts (the committed one unless told otherwise) against a running animals service,
 * setting provider states up through its public API, and reports each interaction. Rejects only
 * when the verifier cannot run.
 * @example const report = await verifyProvider({ providerBaseUrl: 'http://127.0.0.1:4010/v1', apiKey })
 */
export async function verifyProvider(options: VerifyProviderOptions): Promise<VerificationReport> {
  const { providerBaseUrl, apiKey, marker, pactUrls, broker, timeoutMs } = options
  const stateErrors: StateError[] = []
  const settingUp = new Set<Promise<unknown>>()
  // The provider states create animals: their ids are watched as parity watches its own (spec 2).
  const watch = watchCreationsFromTheFirst({ baseUrl: providerBaseUrl, apiKey, timeoutMs: timeoutMs ?? SETUP_WAIT_MS, fetch: (input, init) => fetch(input, init) })
  const stateHandlers = recordingFailures(
    createProviderStateHandlers({
      baseUrl: providerBaseUrl,
      apiKey,
      fetch: watch.fetch,
      ...definedOnly({ marker }),
      ...definedOnly({ timeoutMs }),
    }),
    { failures: stateErrors, settingUp, timeoutMs },
  )
  const verifierOptions = createVerifierOptions({
    providerBaseUrl,
    apiKey,
    stateHandlers,
    logLevel: 'error',
    ...definedOnly({ pactUrls }),
    ...definedOnly({ broker }),
    ...definedOnly({ marker }),
    ...definedOnly({ timeoutMs }),
  })
  // pact-js resolves with the verifier's JSON when every interaction passed and rejects with it
  // as the message when some failed; any other rejection means the verifier did not run.
  const settled = await new Verifier(verifierOptions).verifyProvider().then(
    (json) => ({ passed: true, json }),
    (error: unknown) => ({ passed: false, json: error instanceof Error ? error.message : String(error) }),
  )
  // Pact gives up on a state's setup after the same timeout as the handler does, and may finish
  // the run before the handler has recorded why: its failure would be missing from the report.
  // Without a timeout a setup may never end, so the wait has a bound of its own.
  await Promise.race([Promise.allSettled(settingUp), delay(timeoutMs ?? SETUP_WAIT_MS, undefined, { ref: false })])
  const json = parseVerifierJson(settled.json)
  const outcomes = toVerificationOutcomes(json, timeoutMs === undefined ? { providerBaseUrl } : { providerBaseUrl, timeoutMs })
  const interactions = outcomes.interactions.map((each) => withStateErrors(each, stateErrors))
  return {
    passed: settled.passed,
    checked: interactions.map((each) => each.description),
    failed: interactions.filter((each) => !each.passed).map((each) => each.description),
    interactions,
    problems: [...outcomes.problems, ...idReuses(watch.log).reasons.map((reason) => `the provider states' creations: ${reason}`)],
    stateErrors,
    output: Array.isArray(json.output) ? json.output.join('\n') : '',
  }
}

/** Where the guarded handlers record their failures, and the setups still running. */
type Recording = { readonly failures: StateError[]; readonly settingUp: Set<Promise<unknown>>; readonly timeoutMs: number | undefined }

function recordingFailures(handlers: Readonly<Record<string, ProviderStateHandler>>, recording: Recording): Record<string, ProviderStateHandler> {
  const { failures, settingUp, timeoutMs } = recording
  const guarded: Record<string, ProviderStateHandler> = {}
  for (const [state, handler] of Object.entries(handlers)) {
    guarded[state] = (params) => {
      const setup = (async () => {
        try {
          return await handler(params)
        } catch (error) {
          // An Error without a cause (an API error, a bad state parameter) gives its own message.
          const message = describeFetchError(error, timeoutMs)
          failures.push({ state, message })
          throw error
        }
      })()
      settingUp.add(setup)
      void setup.then(
        () => settingUp.delete(setup),
        () => settingUp.delete(setup),
      )
      return setup
    }
  }
  return guarded
}

// A failed state leaves the interaction to run without its values, so its own mismatches mislead:
// the state's failure comes first.
function withStateErrors(outcome: InteractionOutcome, stateErrors: readonly StateError[]): InteractionOutcome {
  if (outcome.passed) return outcome
  const causes = stateErrors.filter((error) => outcome.providerStates.includes(error.state))
  const unique = [...new Map(causes.map((each) => [`${each.state}\n${each.message}`, each])).values()]
  const mismatches = unique.map((each) => ({
    kind: 'state' as const,
    message: `provider state "${each.state}" could not be set up: ${each.message}`,
  }))
  return { ...outcome, mismatches: [...mismatches, ...outcome.mismatches] }
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
