import type { VerifierOptions } from '@pact-foundation/pact'
import type { ConsumerVersionSelector } from './consumer-version-selectors.js'
import { PACT_PARTIES, pactFilePath } from '../contracts/pact-files.js'
import { API_KEY_PLACEHOLDER } from '../contracts/placeholder-key.js'
import type { ProviderStateHandler } from '../deployment/provider-states.js'
import { markName } from '../deployment/run-marker.js'
import { definedOnly } from '../service/defined-only.js'

/** The placeholder token; see placeholder-key.ts. */
export { API_KEY_PLACEHOLDER }

/**
 * `Authorization` with the placeholder token swapped for `apiKey`; any other value unchanged.
 * @example withApiKey('Bearer pact-placeholder-api-key', 'k1') // 'Bearer k1'
 */
export function withApiKey(authorization: string | undefined, apiKey: string): string | undefined {
  if (authorization === undefined) return undefined
  const match = /^(bearer)[ ]+(\S+)$/i.exec(authorization.trim())
  return match?.[2] === API_KEY_PLACEHOLDER ? `${match[1]} ${apiKey}` : authorization
}

/**
 * The part of an incoming request a request filter reads and rewrites: Node's `IncomingMessage`,
 * with the body Pact's proxy has already parsed (an object for JSON).
 */
export type FilterableRequest = { headers: Record<string, string | string[] | undefined>; method?: string; body?: unknown }

/** A request filter in Express's shape, as Pact's verifier proxy calls it before each request. */
export type RequestFilter = (request: FilterableRequest, response: unknown, next: () => void) => void

/** A request filter that puts the real key where the pact has the placeholder, and nowhere else. */
export function createApiKeyFilter(apiKey: string): RequestFilter {
  return createRequestFilter({ apiKey })
}

/** Options of `createRequestFilter`. */
export type RequestFilterOptions = {
  readonly apiKey: string
  /** Appended to the `name` of every animal a `POST` of the pact creates. */
  readonly marker?: string
}

/**
 * A request filter that puts the real key where the pact has the placeholder and, given a marker,
 * marks the name of every animal the pact's requests create: the service cannot delete them, so a
 * run's animals must be recognisable. The response matches `name` by type, so the mark is safe.
 */
export function createRequestFilter(options: RequestFilterOptions): RequestFilter {
  return (request, _response, next) => {
    const { authorization } = request.headers
    if (typeof authorization === 'string') request.headers.authorization = withApiKey(authorization, options.apiKey)
    if (options.marker !== undefined) markCreatedName(request, options.marker)
    next()
  }
}

function markCreatedName(request: FilterableRequest, marker: string): void {
  const { body } = request
  if (request.method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body)) return
  const fields = body as Record<string, unknown>
  if (typeof fields.name !== 'string') return
  fields.name = markName(fields.name, marker)
  // Pact's proxy sends JSON.stringify(body) with the request's own Content-Length: keep them equal.
  request.headers['content-length'] = String(new TextEncoder().encode(JSON.stringify(fields)).length)
}

/**
 * A Pact Broker to fetch the pacts from, and to publish the results to. Its token is not here: Pact
 * reads it from `PACT_BROKER_TOKEN`, and logs these options as JSON at trace level.
 */
export type BrokerOptions = {
  /** The broker's base URL, e.g. `https://broker.example`. */
  readonly url: string
  readonly consumerVersionSelectors: readonly ConsumerVersionSelector[]
  /** The version of the provider being verified, e.g. a commit; needed to publish. */
  readonly providerVersion?: string
  /** The provider's branch: the broker uses it to tell pending pacts; needed to publish here. */
  readonly branch?: string
  /** Publish the results to the broker. */
  readonly publish?: boolean
}

/** Options of `createVerifierOptions`. */
export type AnimalsVerifierOptions = {
  /** The API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`. */
  readonly providerBaseUrl: string
  /** The key the provider accepts; it replaces the placeholder and is never logged by us. */
  readonly apiKey: string
  /** From `createProviderStateHandlers`. */
  readonly stateHandlers: Readonly<Record<string, ProviderStateHandler>>
  /** The pact files to verify; the committed one unless given or a broker is. */
  readonly pactUrls?: readonly string[]
  /** Fetch the pacts from a Pact Broker (besides any `pactUrls`) and maybe publish the results. */
  readonly broker?: BrokerOptions
  /** Appended to the names of the animals the pact's requests create. */
  readonly marker?: string
  /** Gives up on each request to the provider, and each provider state's setup, after this long. */
  readonly timeoutMs?: number
  /** Pact's log level; `warn` unless given. `debug` and `trace` log requests, headers included. */
  readonly logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error'
}

/**
 * Options for Pact's `Verifier` that check the committed pacts against a running animals service.
 * @example await new Verifier(createVerifierOptions({ providerBaseUrl, apiKey, stateHandlers })).verifyProvider()
 */
export function createVerifierOptions(options: AnimalsVerifierOptions): VerifierOptions {
  const { broker, marker, timeoutMs } = options
  const pactUrls = options.pactUrls ?? (broker === undefined ? [pactFilePath()] : [])
  return {
    provider: PACT_PARTIES.provider,
    providerBaseUrl: options.providerBaseUrl,
    ...(pactUrls.length === 0 ? {} : { pactUrls: [...pactUrls] }),
    ...(broker === undefined ? {} : brokerOptions(broker)),
    stateHandlers: { ...options.stateHandlers },
    requestFilter: createRequestFilter(marker === undefined ? { apiKey: options.apiKey } : { apiKey: options.apiKey, marker }),
    logLevel: options.logLevel ?? 'warn',
    failIfNoPactsFound: true,
    ...definedOnly({ timeout: timeoutMs }),
  }
}

function brokerOptions(broker: BrokerOptions): Partial<VerifierOptions> {
  return {
    pactBrokerUrl: broker.url,
    consumerVersionSelectors: broker.consumerVersionSelectors.map((selector) => ({ ...selector })),
    ...definedOnly({ providerVersion: broker.providerVersion }),
    ...definedOnly({ providerVersionBranch: broker.branch }),
    ...(broker.publish === true ? { publishVerificationResult: true } : {}),
  }
}
