import { spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import type { VerificationReport, VerifyProviderOptions } from '../../src/verify/provider.js'
import type { Handler, PlainRequest } from '../../src/service/http.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createFake, type Fake } from '../../src/create-fake.js'
import { createPages } from '../../src/site/pages.js'
import { startServer } from '../../src/node/server.js'
import type { Pet } from '../../src/spec/animals-service.js'
import { strykerChild } from './stryker-bridge.js'

/** The key the verified fakes accept; the pacts carry a placeholder in its place. */
export const PROVIDER_KEY = 'provider-key-5f1c2a'

/** Marks the animals the provider states create in these tests. */
export const RUN_MARKER = '[pact-verification]'

/** A standalone fake on an ephemeral port, possibly behind a wrapper that breaks a rule. */
export type VerifiableFake = {
  /** The API base, e.g. `http://127.0.0.1:40123/v1`. */
  readonly baseUrl: string
  readonly fake: Fake
  /** `METHOD path?query` of every request that reached the site, in order. */
  readonly requests: readonly string[]
  close(): Promise<void>
}

/** Options of `startVerifiableFake`. */
export type VerifiableFakeOptions = {
  /** Wraps the site, e.g. to break a rule. */
  readonly wrap?: (site: Handler) => Handler
  /** The animals to start from; the default fixture unless given. */
  readonly pets?: readonly Pet[]
}

/** Starts the fake as `animals-mock serve` does (the site with its pages), accepting `PROVIDER_KEY` only. */
export async function startVerifiableFake(options: VerifiableFakeOptions = {}): Promise<VerifiableFake> {
  const fake = createFake(options.pets === undefined ? { keys: [PROVIDER_KEY] } : { keys: [PROVIDER_KEY], pets: options.pets })
  const site = (options.wrap ?? ((site: Handler) => site))(createSite({ api: fake, pages: createPages() }))
  const requests: string[] = []
  const recorded: Handler = {
    handle(request: PlainRequest) {
      requests.push(`${request.method} ${request.path}${request.search === '' ? '' : `?${request.search}`}`)
      return site.handle(request)
    },
  }
  const server = await startServer({ app: recorded })
  return { baseUrl: `${server.url}${API_BASE}`, fake, requests, close: () => server.close() }
}

// Runs in a child process: Pact's verifier prints its report straight to the process's stdout,
// which a test can only keep quiet, and show on failure, by owning that stdout.
const CHILD = `
import { writeSync } from 'node:fs'
const { verifyProvider } = await import(process.env.VERIFY_MODULE)
const report = await verifyProvider(JSON.parse(process.env.VERIFY_OPTIONS))
writeSync(3, JSON.stringify(report))
`

const VERIFY_MODULE = new URL('../../dist/verify/provider.js', import.meta.url).href

/**
 * Verifies the committed pact against `baseUrl` with the built `verifyProvider` (`npm test` builds
 * first), the provider states set up through the public API with `PROVIDER_KEY`, unless `overrides`
 * say otherwise (other pacts, another key, a timeout).
 */
export async function verifyAgainst(baseUrl: string, overrides: Partial<VerifyProviderOptions> = {}): Promise<VerificationReport> {
  const options: VerifyProviderOptions = { providerBaseUrl: baseUrl, apiKey: PROVIDER_KEY, marker: RUN_MARKER, ...overrides }
  const stryker = strykerChild()
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true', VERIFY_MODULE, VERIFY_OPTIONS: JSON.stringify(options), ...stryker.env },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  })
  const [stdout, stderr, report] = await Promise.all([
    collect(child.stdout),
    collect(child.stderr),
    collect(child.stdio[3] as Readable),
    new Promise((resolve) => child.on('close', resolve)),
  ])
  stryker.exited()
  if (report === '') throw new Error(`the verification did not finish:\n${stderr}\n${stdout}`)
  return JSON.parse(report) as VerificationReport
}

function collect(stream: Readable | null): Promise<string> {
  if (stream === null) return Promise.resolve('')
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  return new Promise((resolve, reject) => {
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    stream.on('error', reject)
  })
}

/** The verifier's report without its terminal colours, for an assertion message. */
export function plain(output: string): string {
  return output.replace(/\u001b\[[0-9;]*m/g, '')
}
