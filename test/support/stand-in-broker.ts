import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PACT_PARTIES, pactFilePath } from '../../src/contracts/pact-files.js'

/** A request the stand-in broker received. */
export type BrokerRequest = { readonly method: string; readonly path: string; readonly authorization?: string; readonly body: string }

/** A Pact Broker on loopback that serves the committed pact and records what it is sent. */
export type StandInBroker = {
  readonly url: string
  readonly requests: readonly BrokerRequest[]
  /** The bodies of the "pacts for verification" requests, parsed. */
  forVerification(): unknown[]
  /** The verification results published, parsed. */
  published(): unknown[]
  close(): Promise<void>
}

const { consumer, provider } = PACT_PARTIES
const FOR_VERIFICATION = `/pacts/provider/${provider}/for-verification`
const PACT = `/pacts/provider/${provider}/consumer/${consumer}/pact-version/stand-in`
const RESULTS = `${PACT}/verification-results`
const PROVIDER = `/pacticipants/${provider}`
const BRANCH_VERSION = /^\/pacticipants\/[^/]+\/branches\/[^/]+\/versions\/[^/]+$/

/**
 * Starts the HAL resources Pact's verifier walks: the index, "pacts for verification" (GET, then
 * POST with the selectors), the pact with its publication links, the provider with its branch
 * versions, and the verification results.
 */
export async function startStandInBroker(options: { readonly refusePublishing?: boolean; readonly failPactFetch?: boolean } = {}): Promise<StandInBroker> {
  const pact = JSON.parse(readFileSync(pactFilePath(), 'utf8')) as Record<string, unknown>
  const requests: BrokerRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const path = new URL(req.url ?? '/', 'http://broker').pathname
      requests.push({ method: req.method ?? 'GET', path, body, ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }) })
      // A broker that refuses the results and, as some do, echoes the credential it was sent.
      if (options.refusePublishing === true && req.method === 'POST' && path === RESULTS) {
        res.writeHead(403, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: `${req.headers.authorization ?? 'no credential'} may not publish results` }))
        return
      }
      if (options.failPactFetch === true && req.method === 'GET' && path === PACT) {
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end('{"error":"unavailable"}')
        return
      }
      // A broker that signs its pact links with the caller's token, as some proxies do: the
      // token then shows in any message that names the link.
      const token = options.failPactFetch === true ? (req.headers.authorization ?? '').replace(/^Bearer /, '') : undefined
      answer(req, res, path, origin(), pact, token)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = (): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const bodiesOf = (method: string, test: (path: string) => boolean): unknown[] =>
    requests.filter((each) => each.method === method && test(each.path)).map((each) => JSON.parse(each.body) as unknown)
  return {
    url: origin(),
    requests,
    forVerification: () => bodiesOf('POST', (path) => path === FOR_VERIFICATION),
    published: () => bodiesOf('POST', (path) => path === RESULTS),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function answer(req: IncomingMessage, res: ServerResponse, path: string, origin: string, pact: Record<string, unknown>, signWith?: string): void {
  const hal = (status: number, value: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/hal+json' })
    res.end(JSON.stringify(value))
  }
  const link = (href: string, templated = false): Record<string, unknown> => ({ href: `${origin}${href}`, templated })
  if (req.method === 'GET' && path === '/') {
    return hal(200, { _links: { 'pb:provider-pacts-for-verification': link('/pacts/provider/{provider}/for-verification', true) } })
  }
  if (path === FOR_VERIFICATION && req.method === 'GET') return hal(200, { _links: { self: link(FOR_VERIFICATION) } })
  if (path === FOR_VERIFICATION && req.method === 'POST') {
    const entry = {
      shortDescription: `latest pact of ${consumer}`,
      verificationProperties: { pending: false, notices: [] },
      _links: { self: { ...link(signWith === undefined ? PACT : `${PACT}?access_token=${signWith}`), name: `Pact between ${consumer} and ${provider}` } },
    }
    return hal(200, { _embedded: { pacts: [entry] }, _links: { self: link(FOR_VERIFICATION) } })
  }
  if (req.method === 'GET' && path === PACT) {
    return hal(200, { ...pact, _links: { 'pb:publish-verification-results': link(RESULTS), 'pb:provider': link(PROVIDER) } })
  }
  if (req.method === 'GET' && path === PROVIDER) {
    return hal(200, { name: provider, _links: { self: link(PROVIDER), 'pb:branch-version': link(`${PROVIDER}/branches/{branch}/versions/{version}`, true) } })
  }
  if (req.method === 'PUT' && BRANCH_VERSION.test(path)) return hal(200, { _links: {} })
  if (req.method === 'POST' && path === RESULTS) return hal(201, { _links: {} })
  return hal(404, { error: `nothing at ${req.method} ${path}` })
}
