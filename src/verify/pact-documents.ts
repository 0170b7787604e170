import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { PACT_PARTIES } from '../contracts/pact-files.js'
import type { BrokerOptions } from './options.js'
import { definedOnly } from '../service/defined-only.js'

/** The pacts in local files and directories (each directory's `*.json`, as the verifier reads them), parsed. */
export async function readLocalPacts(paths: readonly string[]): Promise<unknown[]> {
  const files: string[] = []
  for (const path of paths) {
    if ((await stat(path)).isDirectory()) {
      files.push(...(await readdir(path)).filter((name) => name.endsWith('.json')).sort().map((name) => join(path, name)))
    } else files.push(path)
  }
  const pacts: unknown[] = []
  for (const file of files) {
    try {
      pacts.push(JSON.parse(await readFile(file, 'utf8')))
    } catch {
      // Not a pact: the verifier reports it.
    }
  }
  return pacts
}

/** Options of `fetchBrokerPacts`. */
export type BrokerPactsOptions = {
  readonly broker: BrokerOptions
  readonly token?: string
  readonly timeoutMs: number
  readonly fetch?: typeof fetch
}

/**
 * The pacts a Pact Broker gives the provider for these selectors, found as its verifier finds them:
 * the index's `pb:provider-pacts-for-verification`, then each pact's `self` link.
 */
export async function fetchBrokerPacts(options: BrokerPactsOptions): Promise<unknown[]> {
  const send = options.fetch ?? ((input, init) => fetch(input, init))
  const headers: Record<string, string> = { accept: 'application/hal+json, application/json' }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  const json = async (url: string, init: RequestInit = {}): Promise<Record<string, unknown>> => {
    const response = await send(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) }, signal: AbortSignal.timeout(options.timeoutMs) })
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}`)
    return (await response.json()) as Record<string, unknown>
  }
  const { broker } = options
  const index = await json(broker.url)
  const template = hrefOf(index, 'pb:provider-pacts-for-verification')
  if (template === undefined) throw new Error('the broker index has no pb:provider-pacts-for-verification')
  const forVerification = await json(template.replace('{provider}', encodeURIComponent(PACT_PARTIES.provider)), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      consumerVersionSelectors: broker.consumerVersionSelectors,
      ...definedOnly({ providerVersionBranch: broker.branch }),
      includePendingStatus: false,
    }),
  })
  const embedded = (forVerification._embedded as { pacts?: unknown } | undefined)?.pacts
  const links = (Array.isArray(embedded) ? embedded : []).map((each) => hrefOf(each as Record<string, unknown>, 'self'))
  return Promise.all(links.filter((href) => href !== undefined).map((href) => json(href)))
}

function hrefOf(resource: Record<string, unknown>, relation: string): string | undefined {
  const link = (resource._links as Record<string, { href?: unknown } | undefined> | undefined)?.[relation]
  return typeof link?.href === 'string' ? link.href : undefined
}
