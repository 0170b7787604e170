import type { VerifierOptions } from '@pact-foundation/pact'
import { PACT_PARTIES, pactFilePath } from './pact-files.js'
import type { ProviderStateHandler } from './provider-states.js'

/**
 * The bearer token the consumer tests send where a valid key belongs. The verifier swaps it for the
 * real key; the pacts' invalid and missing keys are left as they are.
 */
export const API_KEY_PLACEHOLDER = 'pact-placeholder-api-key'

/**
 * `Authorization` with the placeholder token swapped for `apiKey`; any other value unchanged.
 * @example withApiKey('Bearer pact-placeholder-api-key', 'k1') // 'Bearer k1'
 */
export function withApiKey(authorization: string | undefined, apiKey: string): string | undefined {
  if (authorization === undefined) return undefined
  const match = /^(bearer)[ ]+(\S+)$/i.exec(authorization.trim())
  return match?.[2] === API_KEY_PLACEHOLDER ? `${match[1]} ${apiKey}` : authorization
}

/** The part of an incoming request a request filter reads and rewrites (Node's `IncomingMessage`). */
export type FilterableRequest = { headers: Record<string, string | string[] | undefined> }

/** A request filter in Express's shape, as Pact's verifier proxy calls it before each request. */
export type RequestFilter = (request: FilterableRequest, response: unknown, next: () => void) => void

/** A request filter that puts the real key where the pact has the placeholder, and nowhere else. */
export function createApiKeyFilter(apiKey: string): RequestFilter {
  return (request, _response, next) => {
    const { authorization } = request.headers
    if (typeof authorization === 'string') {
      const replaced = withApiKey(authorization, apiKey)
      if (replaced !== undefined) request.headers.authorization = replaced
    }
    next()
  }
}

/** Options of `createVerifierOptions`. */
export type AnimalsVerifierOptions = {
  /** The API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`. */
  readonly providerBaseUrl: string
  /** The key the provider accepts; it replaces the placeholder and is never logged by us. */
  readonly apiKey: string
  /** From `createProviderStateHandlers`. */
  readonly stateHandlers: Readonly<Record<string, ProviderStateHandler>>
  /** The pact files to verify; the committed one unless given. */
  readonly pactUrls?: readonly string[]
  /** Pact's log level; `warn` unless given. `debug` and `trace` log requests, headers included. */
  readonly logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error'
}

/**
 * Options for Pact's `Verifier` that check the committed pacts against a running animals service.
 * @example await new Verifier(createVerifierOptions({ providerBaseUrl, apiKey, stateHandlers })).verifyProvider()
 */
export function createVerifierOptions(options: AnimalsVerifierOptions): VerifierOptions {
  return {
    provider: PACT_PARTIES.provider,
    providerBaseUrl: options.providerBaseUrl,
    pactUrls: [...(options.pactUrls ?? [pactFilePath()])],
    stateHandlers: { ...options.stateHandlers },
    requestFilter: createApiKeyFilter(options.apiKey),
    logLevel: options.logLevel ?? 'warn',
    failIfNoPactsFound: true,
  }
}
