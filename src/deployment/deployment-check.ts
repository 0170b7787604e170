import { fail, ok, type Result } from '../service/http.js'
import { describeFetchError } from '../client/fetch-errors.js'

/** Options of `checkDeployment`. */
export type DeploymentCheckOptions = {
  /** The API base including `/v1`. */
  readonly baseUrl: string
  readonly apiKey: string
  readonly timeoutMs: number
  /** The name of the variable the key came from, for the message when the service refuses it. */
  readonly keySource: string
  readonly fetch?: typeof fetch
}

/**
 * Whether a check can run against a deployment at all: one `GET /pets?limit=1` with the key. No
 * answer, a refused key (401) or no `/pets` there (404: likely a base URL without `/v1`) is a
 * reason not to start; any other answer is left to the check itself to judge.
 */
export async function checkDeployment(options: DeploymentCheckOptions): Promise<Result<void, string>> {
  const send = options.fetch ?? ((input, init) => fetch(input, init))
  const url = `${options.baseUrl}/pets?limit=1`
  let status: number
  try {
    const response = await send(url, {
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs),
    })
    status = response.status
    await response.body?.cancel()
  } catch (error) {
    return fail(`cannot reach ${options.baseUrl}: ${describeFetchError(error, options.timeoutMs)}`)
  }
  if (status === 401) return fail(`${options.baseUrl} refused the key in ${options.keySource} (401 on GET /pets)`)
  if (status === 404) {
    return fail(`GET ${options.baseUrl}/pets answered 404: is the base URL the API base with its /v1 prefix?`)
  }
  return ok(undefined)
}

/** Options of `checkBroker`. */
export type BrokerCheckOptions = {
  readonly brokerUrl: string
  readonly token?: string
  readonly timeoutMs: number
  readonly fetch?: typeof fetch
}

/** Whether a Pact Broker answers its index with the token: unreachable, refused or not a broker are reasons not to start. */
export async function checkBroker(options: BrokerCheckOptions): Promise<Result<void, string>> {
  const send = options.fetch ?? ((input, init) => fetch(input, init))
  const headers: Record<string, string> = { accept: 'application/hal+json, application/json' }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  let response: Response
  try {
    response = await send(options.brokerUrl, { headers, signal: AbortSignal.timeout(options.timeoutMs) })
    await response.body?.cancel()
  } catch (error) {
    return fail(`cannot reach the Pact Broker at ${options.brokerUrl}: ${describeFetchError(error, options.timeoutMs)}`)
  }
  if (response.status === 401 || response.status === 403) {
    return fail(`the Pact Broker at ${options.brokerUrl} refused the token in PACT_BROKER_TOKEN (${response.status})`)
  }
  if (!response.ok) return fail(`the Pact Broker at ${options.brokerUrl} answered ${response.status} to its index`)
  return ok(undefined)
}
