import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PACT_PARTIES } from '../../src/contracts/pact-files.js'
import { deprecationWarnings } from '../../src/verify/deprecation-warnings.js'
import { fetchBrokerPacts, readLocalPacts } from '../../src/verify/pact-documents.js'
import { startStandInBroker } from '../support/stand-in-broker.js'

const dir = mkdtempSync(join(tmpdir(), 'pact-documents-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('reads pact files, and each directory\'s *.json files in name order, skipping what is not JSON', async () => {
  const folder = join(dir, 'pacts')
  mkdirSync(join(folder, 'nested.json'), { recursive: true })
  writeFileSync(join(folder, 'b.json'), '{"consumer":{"name":"b"}}')
  writeFileSync(join(folder, 'a.json'), '{"consumer":{"name":"a"}}')
  writeFileSync(join(folder, 'broken.json'), '{"consumer":')
  writeFileSync(join(folder, 'notes.txt'), '{"consumer":{"name":"txt"}}')
  writeFileSync(join(folder, 'c.json.bak'), '{"consumer":{"name":"bak"}}')
  writeFileSync(join(dir, 'single.pact'), '{"consumer":{"name":"single"}}')
  expect(await readLocalPacts([join(dir, 'single.pact'), folder])).toEqual([{ consumer: { name: 'single' } }, { consumer: { name: 'a' } }, { consumer: { name: 'b' } }])
  expect(await readLocalPacts([])).toEqual([])
  await expect(readLocalPacts([join(dir, 'missing.json')])).rejects.toMatchObject({ code: 'ENOENT' })
})

type Sent = { url: string; method: string; headers: Record<string, string>; body?: unknown; timed: boolean }

/** A broker in a fetch: `routes` answers by `METHOD url`; anything else is a 404. */
function stubBroker(routes: Record<string, unknown>) {
  const sent: Sent[] = []
  const stub: typeof fetch = async (input, init) => {
    const method = init?.method ?? 'GET'
    const url = String(input)
    sent.push({
      url,
      method,
      headers: init?.headers as Record<string, string>,
      ...(typeof init?.body === 'string' ? { body: JSON.parse(init.body) as unknown } : {}),
      timed: init?.signal instanceof AbortSignal,
    })
    const answer = routes[`${method} ${url}`]
    return answer === undefined ? new Response('{}', { status: 404 }) : Response.json(answer)
  }
  return { fetch: stub, sent }
}

const INDEX = { _links: { 'pb:provider-pacts-for-verification': { href: 'https://b.example/pacts/provider/{provider}/for-verification', templated: true } } }
const FOR_VERIFICATION = 'https://b.example/pacts/provider/animals-service/for-verification'

it('asks the broker for the provider\'s pacts by selectors, without pending status, then fetches each by its self link', async () => {
  const broker = stubBroker({
    'GET https://b.example': INDEX,
    [`POST ${FOR_VERIFICATION}`]: {
      _embedded: { pacts: [{ _links: { self: { href: 'https://b.example/pact/1' } } }, { _links: {} }, { _links: { self: { href: 7 } } }, { _links: { self: { href: 'https://b.example/pact/2' } } }] },
    },
    'GET https://b.example/pact/1': { consumer: { name: 'web' } },
    'GET https://b.example/pact/2': { consumer: { name: 'mobile' } },
  })
  const selectors = [{ mainBranch: true as const }, { deployedOrReleased: true as const }]
  const pacts = await fetchBrokerPacts({ broker: { url: 'https://b.example', consumerVersionSelectors: selectors, branch: 'main' }, token: 'tok-1', timeoutMs: 1000, fetch: broker.fetch })
  expect(pacts).toEqual([{ consumer: { name: 'web' } }, { consumer: { name: 'mobile' } }])
  const accept = 'application/hal+json, application/json'
  expect(broker.sent).toEqual([
    { url: 'https://b.example', method: 'GET', headers: { accept, authorization: 'Bearer tok-1' }, timed: true },
    {
      url: FOR_VERIFICATION,
      method: 'POST',
      headers: { accept, authorization: 'Bearer tok-1', 'content-type': 'application/json' },
      body: { consumerVersionSelectors: selectors, providerVersionBranch: 'main', includePendingStatus: false },
      timed: true,
    },
    { url: 'https://b.example/pact/1', method: 'GET', headers: { accept, authorization: 'Bearer tok-1' }, timed: true },
    { url: 'https://b.example/pact/2', method: 'GET', headers: { accept, authorization: 'Bearer tok-1' }, timed: true },
  ])
})

it('sends no credential without a token, and no branch without one', async () => {
  const broker = stubBroker({ 'GET https://b.example': INDEX, [`POST ${FOR_VERIFICATION}`]: {} })
  expect(await fetchBrokerPacts({ broker: { url: 'https://b.example', consumerVersionSelectors: [{ branch: 'x' }] }, timeoutMs: 1000, fetch: broker.fetch })).toEqual([])
  expect(broker.sent.map((each) => each.headers.authorization)).toEqual([undefined, undefined])
  expect(broker.sent[1]?.body).toEqual({ consumerVersionSelectors: [{ branch: 'x' }], includePendingStatus: false })
})

it('fails naming the request the broker refused, or an index without pacts for verification', async () => {
  const options = { broker: { url: 'https://b.example', consumerVersionSelectors: [{ branch: 'x' }] }, timeoutMs: 1000 }
  await expect(fetchBrokerPacts({ ...options, fetch: stubBroker({}).fetch })).rejects.toThrow('GET https://b.example answered 404')
  await expect(fetchBrokerPacts({ ...options, fetch: stubBroker({ 'GET https://b.example': INDEX }).fetch })).rejects.toThrow(`POST ${FOR_VERIFICATION} answered 404`)
  await expect(fetchBrokerPacts({ ...options, fetch: stubBroker({ 'GET https://b.example': { _links: { self: { href: 'https://b.example' } } } }).fetch })).rejects.toThrow(
    'the broker index has no pb:provider-pacts-for-verification',
  )
  await expect(fetchBrokerPacts({ ...options, fetch: stubBroker({ 'GET https://b.example': {} }).fetch })).rejects.toThrow('the broker index has no pb:provider-pacts-for-verification')
  const missingPact = stubBroker({ 'GET https://b.example': INDEX, [`POST ${FOR_VERIFICATION}`]: { _embedded: { pacts: [{ _links: { self: { href: 'https://b.example/gone' } } }] } } })
  await expect(fetchBrokerPacts({ ...options, fetch: missingPact.fetch })).rejects.toThrow('GET https://b.example/gone answered 404')
})

it('reads the pacts from a Pact Broker over HTTP, sending the token', async () => {
  const broker = await startStandInBroker()
  try {
    const pacts = await fetchBrokerPacts({ broker: { url: broker.url, consumerVersionSelectors: [{ mainBranch: true }] }, token: 'tok-2', timeoutMs: 5000 })
    expect(pacts).toHaveLength(1)
    expect(pacts[0]).toMatchObject({ consumer: { name: PACT_PARTIES.consumer }, provider: { name: PACT_PARTIES.provider } })
    expect(broker.forVerification()).toEqual([{ consumerVersionSelectors: [{ mainBranch: true }], includePendingStatus: false }])
    expect(broker.requests.map((each) => each.authorization)).toEqual(['Bearer tok-2', 'Bearer tok-2', 'Bearer tok-2'])
  } finally {
    await broker.close()
  }
})

describe('the order of a directory of pacts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pact-documents-order-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const pactOf = (consumer: string) =>
    JSON.stringify({
      consumer: { name: consumer },
      provider: { name: 'animals-service' },
      interactions: [{ description: `${consumer} gets an animal`, request: { method: 'GET', path: '/pets/1' }, response: { status: 200 } }],
    })

  // Directories list their files in an order of their own (libuv sorts by UTF-8 bytes, where
  // U+FF21 comes before U+1F600; other systems differ even for ASCII). The pacts, and so the
  // deprecation warnings verify prints, come in JavaScript's string order, by UTF-16 code units,
  // where U+1F600 (a surrogate pair, 0xD83D...) comes first.
  it("reads a directory's pacts in JavaScript's name order, whatever order the directory lists them in, and warns in that order", async () => {
    writeFileSync(join(dir, '\u{FF21}.json'), pactOf('fullwidth-a'))
    writeFileSync(join(dir, '\u{1F600}.json'), pactOf('grinning-face'))
    const pacts = await readLocalPacts([dir])
    expect(pacts.map((pact) => (pact as { consumer: { name: string } }).consumer.name)).toEqual(['grinning-face', 'fullwidth-a'])
    expect(pacts.flatMap(deprecationWarnings).map((warning) => warning.consumer)).toEqual(['grinning-face', 'fullwidth-a'])
  })
})
