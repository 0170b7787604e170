import { isAnimalsApiError } from '../client/client.js'
import { describeFetchError } from '../client/fetch-errors.js'
import { compareOutcome, type Finding, type Observed, type ProbeOutcome } from './compare.js'
import { PARITY_MIN_ANIMALS, PARITY_PROBES, type Probe, type ProbeContext, toProbeRequest } from './probes.js'
import { judgeScenario, PARITY_SCENARIOS, type Scenario, type ScenarioOutcome, type ScenarioSide, type ScenarioSeen } from './scenario-run.js'
import { createProviderStateHandlers, PROVIDER_STATES } from '../deployment/provider-states.js'
import { markName } from '../deployment/run-marker.js'
import { watchCreations } from '../deployment/creations.js'
import { definedOnly } from '../service/defined-only.js'

/** A service parity talks to: its API base with `/v1`, and a key it accepts. */
export type ParitySide = { readonly baseUrl: string; readonly apiKey: string }

/** Options of `runParity`. */
export type ParityOptions = {
  readonly fake: ParitySide
  readonly deployment: ParitySide
  /** Appended to the names of the animals parity creates on either side. */
  readonly marker: string
  /** Gives up on each request after this many milliseconds. */
  readonly timeoutMs: number
  readonly probes?: readonly Probe[]
  readonly scenarios?: readonly Scenario[]
  readonly fetch?: typeof fetch
}

/** What parity sent and found. */
export type ParityReport = {
  readonly outcomes: readonly ProbeOutcome[]
  readonly scenarios: readonly ScenarioOutcome[]
  readonly findings: readonly Finding[]
}

/** Setting a side up (the animals the probes need) failed: parity could not run. */
export class ParitySetupError extends Error {
  override readonly name = 'ParitySetupError'
}

/**
 * Sends every probe to the fake and to the deployment and compares the answers. First each side
 * gets, through its public API, more animals than the default limit, a sold one, and one of the
 * run's own for the `getPet` probes; every animal created carries the marker.
 */
export async function runParity(options: ParityOptions): Promise<ParityReport> {
  // Each side's ids are looked at before anything is created, and every creation after is noted.
  const [fake, deployment] = await Promise.all([watch('the fake', options.fake, options), watch('the deployment', options.deployment, options)])
  const [fakeContext, deploymentContext] = await Promise.all([prepare('the fake', fake, options), prepare('the deployment', deployment, options)])
  const outcomes: ProbeOutcome[] = []
  for (const probe of options.probes ?? PARITY_PROBES) {
    const [onFake, [onDeployment, deploymentMs]] = await Promise.all([
      observe(fake, probe, fakeContext, options.timeoutMs),
      timed(() => observe(deployment, probe, deploymentContext, options.timeoutMs)),
    ])
    outcomes.push({ probe, fake: onFake, deployment: onDeployment, deploymentMs })
  }
  const scenarios: ScenarioOutcome[] = []
  for (const scenario of options.scenarios ?? PARITY_SCENARIOS) {
    const [onFake, [onDeployment, deploymentMs]] = await Promise.all([see(scenario, fake), timed(() => see(scenario, deployment))])
    scenarios.push({ scenario, fake: onFake, deployment: onDeployment, deploymentMs })
  }
  return { outcomes, scenarios, findings: [...outcomes.flatMap(compareOutcome), ...scenarios.flatMap(judgeScenario)] }
}

/** What `work` resolves with, and how many milliseconds it took. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const value = await work()
  return [value, Math.round(performance.now() - started)]
}

/** A side with the run's marker and timeout, and a `fetch` that notes the ids of the animals it creates. */
async function watch(label: string, side: ParitySide, options: ParityOptions): Promise<ScenarioSide> {
  const send = options.fetch ?? ((input, init) => fetch(input, init))
  const { marker, timeoutMs } = options
  try {
    const { log, fetch: watching } = await watchCreations({ ...side, timeoutMs, fetch: send })
    return { ...side, marker, timeoutMs, fetch: watching, creations: log }
  } catch (error) {
    throw new ParitySetupError(`could not set ${label} up (${side.baseUrl}): ${describeFetchError(error, timeoutMs)}`)
  }
}

async function see(scenario: Scenario, side: ScenarioSide): Promise<ScenarioSeen> {
  try {
    return { ok: true, ...(await scenario.run(side)) }
  } catch (error) {
    return { ok: false, error: describeFetchError(error, side.timeoutMs) }
  }
}

async function prepare(label: string, side: ScenarioSide, options: ParityOptions): Promise<ProbeContext> {
  const states = createProviderStateHandlers({ baseUrl: side.baseUrl, apiKey: side.apiKey, marker: options.marker, timeoutMs: options.timeoutMs, fetch: side.fetch })
  try {
    await states[PROVIDER_STATES.animalsExist]({ atLeast: PARITY_MIN_ANIMALS })
    await states[PROVIDER_STATES.animalsExist]({ atLeast: 1, status: 'sold' })
    const values = await states[PROVIDER_STATES.animalExists]({ name: 'Parity probe', categoryId: 1, status: 'available' })
    const petId = values?.petId
    if (petId === undefined) throw new Error('no id came back for the created animal')
    return { petId, name: markName('Parity probe', options.marker), apiKey: side.apiKey }
  } catch (error) {
    const reason = isAnimalsApiError(error) ? error.message : describeFetchError(error, options.timeoutMs)
    throw new ParitySetupError(`could not set ${label} up (${side.baseUrl}): ${reason}`)
  }
}

async function observe(side: ScenarioSide, probe: Probe, context: ProbeContext, timeoutMs: number): Promise<Observed> {
  const request = toProbeRequest(probe, context)
  try {
    const response = await side.fetch(`${side.baseUrl}${request.target}`, {
      method: request.method,
      headers: request.headers,
      ...definedOnly({ body: request.body }),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    })
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name] = value
    })
    return { ok: true, status: response.status, headers, body: await response.text(), sent: request }
  } catch (error) {
    return { ok: false, error: describeFetchError(error, timeoutMs) }
  }
}
