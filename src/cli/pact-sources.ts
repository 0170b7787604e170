import { readFile, stat } from 'node:fs/promises'
import { isAbsolute, relative } from 'node:path'
import {
  type ConsumerVersionSelector,
  DEFAULT_CONSUMER_VERSION_SELECTORS,
  parseConsumerVersionSelectors,
} from '../verify/consumer-version-selectors.js'
import { PACT_PARTIES, pactFilePath } from '../contracts/pact-files.js'
import type { BrokerOptions } from '../verify/options.js'
import { CliError } from './cli-error.js'
import { parseHttpUrl } from './deployment-options.js'
import { definedOnly } from '../service/defined-only.js'

/** The options of `verify` that say where the pacts come from and where results go. */
export type PactSourceValues = {
  readonly pact: readonly string[]
  readonly 'broker-url'?: string | undefined
  readonly 'consumer-branch': readonly string[]
  readonly 'main-branch': boolean
  readonly 'deployed-or-released': boolean
  readonly 'consumer-version-selectors'?: string | undefined
  readonly 'provider-version'?: string | undefined
  readonly branch?: string | undefined
  readonly publish: boolean
}

/** The pacts a run verifies: local files (checked), a broker, or both. */
export type PactSources = {
  readonly pactUrls: readonly string[]
  readonly broker?: BrokerOptions
  /** The sources in words, for the report. */
  readonly description: string
}

/**
 * Reads and checks the pact options: every local pact exists and holds interactions; broker-only
 * options come with `--broker-url`; `--publish` comes with a version and a branch.
 */
export async function parsePactSources(values: PactSourceValues): Promise<PactSources> {
  const broker = parseBroker(values)
  const pactUrls = values.pact.length > 0 ? values.pact : broker === undefined ? [pactFilePath()] : []
  const counted = await countInteractions(pactUrls)
  const description = describe(pactUrls, counted, broker)
  return broker === undefined ? { pactUrls, description } : { pactUrls, broker, description }
}

function parseBroker(values: PactSourceValues): BrokerOptions | undefined {
  const selectors = selectorsOf(values)
  const { 'provider-version': providerVersion, branch, publish } = values
  if (values['broker-url'] === undefined) {
    if (selectors.length > 0 || providerVersion !== undefined || branch !== undefined || publish) {
      throw new CliError('selectors, --provider-version, --branch and --publish need --broker-url: they are about a broker')
    }
    return undefined
  }
  const url = parseHttpUrl('--broker-url', values['broker-url'])
  if (publish && (providerVersion === undefined || branch === undefined)) {
    throw new CliError('--publish needs --provider-version and --branch: the broker records results against a version on a branch')
  }
  if (providerVersion === '' || branch === '') throw new CliError('--provider-version and --branch must not be empty')
  return {
    url,
    consumerVersionSelectors: selectors.length === 0 ? DEFAULT_CONSUMER_VERSION_SELECTORS : selectors,
    ...definedOnly({ providerVersion }),
    ...definedOnly({ branch }),
    ...(publish ? { publish: true } : {}),
  }
}

function selectorsOf(values: PactSourceValues): ConsumerVersionSelector[] {
  const selectors: ConsumerVersionSelector[] = []
  const json = values['consumer-version-selectors']
  if (json !== undefined) {
    const parsed = parseConsumerVersionSelectors(json)
    if (!parsed.ok) throw new CliError(`--consumer-version-selectors ${parsed.error}`)
    selectors.push(...parsed.value)
  }
  selectors.push(...values['consumer-branch'].map((branch) => ({ branch })))
  if (values['main-branch']) selectors.push({ mainBranch: true })
  if (values['deployed-or-released']) selectors.push({ deployedOrReleased: true })
  return selectors
}

/** Checks every local pact before anything is sent, and counts interactions where it can (not in directories). */
async function countInteractions(pactUrls: readonly string[]): Promise<number | undefined> {
  let total: number | undefined = 0
  for (const path of pactUrls) {
    let isDirectory: boolean
    try {
      isDirectory = (await stat(path)).isDirectory()
    } catch {
      throw new CliError(`no pact at ${path}`)
    }
    if (isDirectory) {
      total = undefined
      continue
    }
    let pact: unknown
    try {
      pact = JSON.parse(await readFile(path, 'utf8'))
    } catch (error) {
      throw new CliError(`cannot read the pact ${path}: ${(error as Error).message.split('\n')[0]}`)
    }
    const interactions = (pact as { interactions?: unknown } | null)?.interactions
    if (!Array.isArray(interactions)) throw new CliError(`${path} is not a pact: it has no "interactions" array`)
    if (interactions.length === 0) throw new CliError(`the pact ${path} holds no interactions`)
    if (total !== undefined) total += interactions.length
  }
  return total
}

function describe(pactUrls: readonly string[], counted: number | undefined, broker: BrokerOptions | undefined): string {
  const files = pactUrls.map(shortPath).join(', ')
  const local = pactUrls.length === 0 ? '' : counted === undefined ? `the pacts in ${files}` : `${counted} interactions of ${files}`
  if (broker === undefined) return local
  const selectors = JSON.stringify(broker.consumerVersionSelectors)
  const remote = `the pacts for ${PACT_PARTIES.provider} from the Pact Broker at ${broker.url} (selectors ${selectors})`
  return local === '' ? remote : `${local} and ${remote}`
}

function shortPath(path: string): string {
  const near = relative(process.cwd(), path)
  return near === '' || near.startsWith('..') || isAbsolute(near) ? path : near
}
