import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pactFilePath } from '../../src/contracts/pact-files.js'
import { UNKNOWN_PET_ID } from '../../src/deployment/provider-states.js'
import type { Handler } from '../../src/service/http.js'
import { plain, RUN_MARKER, startVerifiableFake, verifyAgainst } from '../support/pact-verification.js'
import { startStandInBroker } from '../support/stand-in-broker.js'

// verifyProvider runs Pact's verifier, which prints its own report: each run is a child process
// (test/support/pact-verification.ts), on pacts made of interactions of the committed one.
type Interaction = { description: string; providerStates?: { name: string; params?: Record<string, unknown> }[] }
const committed = JSON.parse(readFileSync(pactFilePath(), 'utf8')) as { interactions: Interaction[] } & Record<string, unknown>
const dir = mkdtempSync(join(tmpdir(), 'verify-provider-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A pact file of the committed interactions with these descriptions, each changed by `edit` if given. */
function pactOf(name: string, descriptions: readonly string[], edit: (interaction: Interaction) => Interaction = (each) => each): string {
  const interactions = descriptions.map((description) => {
    const found = committed.interactions.find((each) => each.description === description)
    if (found === undefined) throw new Error(`no interaction "${description}"`)
    return edit(structuredClone(found))
  })
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify({ ...committed, interactions }))
  return file
}

const GET = 'a request to get an animal'
const GET_WITHOUT_KEY = 'a request to get an animal without a key'
const GET_WITH_INVALID_KEY = 'a request to get an animal with an invalid key'
const LIST_SOLD = 'a request to list sold animals'
const LIST_WITHOUT_KEY = 'a request to list animals without a key'
const ADD_WITH_STATUS = 'a request to add an animal with a status'

/** Creation is down: every POST /pets is answered 500 with an Error body. */
const creationDown = (site: Handler): Handler => ({
  handle: (request) =>
    request.method === 'POST' && request.path === '/v1/pets'
      ? { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'broken', message: 'Creation is down.', status: 500 }) }
      : site.handle(request),
})

it('puts a provider state that could not be set up first among the failing interaction\'s mismatches, once, and never on a passing one', async () => {
  const provider = await startVerifiableFake({ wrap: creationDown })
  try {
    const pact = pactOf('state-fails', [GET, GET_WITHOUT_KEY, GET_WITH_INVALID_KEY, LIST_SOLD, LIST_WITHOUT_KEY])
    const report = await verifyAgainst(provider.baseUrl, { pactUrls: [pact] })
    expect(report.passed).toBe(false)
    expect(report.checked).toEqual([GET, GET_WITHOUT_KEY, GET_WITH_INVALID_KEY, LIST_SOLD, LIST_WITHOUT_KEY])
    expect(report.failed).toEqual([GET])
    const byDescription = new Map(report.interactions.map((each) => [each.description, each]))
    const failed = byDescription.get(GET)
    expect(failed?.providerStates).toEqual(['an animal exists'])
    expect(failed?.mismatches[0]).toEqual({ kind: 'state', message: 'provider state "an animal exists" could not be set up: 500 broken: Creation is down.' })
    expect(failed?.mismatches.slice(1).map((each) => each.kind)).not.toContain('state')
    expect(failed?.mismatches.length).toBeGreaterThan(1)
    for (const passed of [GET_WITHOUT_KEY, GET_WITH_INVALID_KEY, LIST_SOLD, LIST_WITHOUT_KEY]) {
      expect(byDescription.get(passed), passed).toMatchObject({ passed: true, mismatches: [] })
    }
    // Every interaction given the state tried it, and each failure is kept.
    expect(report.stateErrors).toEqual(Array.from({ length: 3 }, () => ({ state: 'an animal exists', message: '500 broken: Creation is down.' })))
    expect(report.problems).toEqual([])
    expect(report.output).toContain('Verifying a pact between')
    expect(report.output).toContain(`\n  ${LIST_WITHOUT_KEY}`)
  } finally {
    await provider.close()
  }
})

it('gives a failing interaction each failure of its own states, once each, and none of other states', async () => {
  // No animals: the list of sold animals fails without its state.
  const provider = await startVerifiableFake({ wrap: creationDown, pets: [] })
  const noneOf = { name: 'animals exist', params: { atLeast: 0, status: 'sold' } }
  try {
    const pact = pactOf('state-errors', [GET, LIST_SOLD], (each) =>
      each.description === LIST_SOLD ? { ...each, providerStates: [noneOf] } : { ...each, providerStates: [noneOf, ...(each.providerStates ?? [])] },
    )
    const report = await verifyAgainst(provider.baseUrl, { pactUrls: [pact] })
    const needs = '"animals exist" needs atLeast, an integer from 1 to 100'
    expect(report.stateErrors).toEqual([
      { state: 'animals exist', message: needs },
      { state: 'an animal exists', message: '500 broken: Creation is down.' },
      { state: 'animals exist', message: needs },
    ])
    const states = (description: string) => report.interactions.find((each) => each.description === description)?.mismatches.filter((each) => each.kind === 'state')
    expect(states(GET)).toEqual([
      { kind: 'state', message: `provider state "animals exist" could not be set up: ${needs}` },
      { kind: 'state', message: 'provider state "an animal exists" could not be set up: 500 broken: Creation is down.' },
    ])
    expect(states(LIST_SOLD)).toEqual([{ kind: 'state', message: `provider state "animals exist" could not be set up: ${needs}` }])
  } finally {
    await provider.close()
  }
})

it('says which state and which request got no answer within the timeout', async () => {
  const provider = await startVerifiableFake()
  provider.fake.force({ method: 'POST', path: '/pets', delayMs: 1_500 })
  try {
    // The creation comes after the state that times out and is slow too, so the state's failure is in before the run ends.
    const report = await verifyAgainst(provider.baseUrl, { pactUrls: [pactOf('timeouts', [GET, ADD_WITH_STATUS])], timeoutMs: 300 })
    expect(report.stateErrors).toEqual([{ state: 'an animal exists', message: 'no answer within 300 ms' }])
    expect(report.interactions.find((each) => each.description === GET)?.mismatches[0]).toEqual({
      kind: 'state',
      message: 'provider state "an animal exists" could not be set up: no answer within 300 ms',
    })
    expect(report.interactions.find((each) => each.description === ADD_WITH_STATUS)?.mismatches).toEqual([
      { kind: 'error', message: `no answer from ${provider.baseUrl}/pets within 300 ms (timed out, or the connection failed)` },
    ])
  } finally {
    await provider.close()
  }
})

it('reports a state that timed out in the last interaction, though the verifier ends first', async () => {
  const provider = await startVerifiableFake()
  provider.fake.force({ method: 'POST', path: '/pets', delayMs: 1_500 })
  try {
    const report = await verifyAgainst(provider.baseUrl, { pactUrls: [pactOf('last-state-times-out', [GET])], timeoutMs: 300 })
    expect(report.stateErrors).toEqual([{ state: 'an animal exists', message: 'no answer within 300 ms' }])
    expect(report.interactions[0]?.mismatches[0]).toEqual({ kind: 'state', message: 'provider state "an animal exists" could not be set up: no answer within 300 ms' })
  } finally {
    await provider.close()
  }
})

it('says a state failed for a dropped connection, naming the cause', async () => {
  const provider = await startVerifiableFake()
  provider.fake.force({ method: 'POST', path: '/pets', drop: true })
  try {
    const report = await verifyAgainst(provider.baseUrl, { pactUrls: [pactOf('dropped', [GET])] })
    expect(report.stateErrors).toEqual([{ state: 'an animal exists', message: 'connection closed (UND_ERR_SOCKET)' }])
    expect(report.interactions[0]?.mismatches[0]).toEqual({ kind: 'state', message: 'provider state "an animal exists" could not be set up: connection closed (UND_ERR_SOCKET)' })
  } finally {
    await provider.close()
  }
})

it('rejects, saying so, when the verifier could not run at all', async () => {
  const provider = await startVerifiableFake()
  try {
    const missing = join(dir, 'none.json')
    await expect(verifyAgainst(provider.baseUrl, { pactUrls: [missing] })).rejects.toThrow(
      new RegExp(`the Pact verifier did not run: .*'${missing}' does not exist, or is not a file or directory`),
    )
    // Of a long reason, the first 500 characters.
    const far = join(dir, 'a'.repeat(200), 'b'.repeat(200), 'c'.repeat(200), 'none.json')
    const thrown = await verifyAgainst(provider.baseUrl, { pactUrls: [far] }).then(() => '', (error: unknown) => String(error))
    const said = thrown.split('\n').find((line) => line.startsWith('Error: the Pact verifier did not run: '))
    expect(said?.slice('Error: the Pact verifier did not run: '.length)).toHaveLength(500)
  } finally {
    await provider.close()
  }
})

it('verifies the pacts a Pact Broker gives for its selectors, passing when every interaction does', async () => {
  const provider = await startVerifiableFake()
  const broker = await startStandInBroker()
  const before = new Set(provider.fake.store.all().map((pet) => pet.id))
  try {
    const report = await verifyAgainst(provider.baseUrl, { broker: { url: broker.url, consumerVersionSelectors: [{ mainBranch: true }] } })
    // The animals the states and the pact's own creations added all carry the run's marker.
    const created = provider.fake.store.all().filter((pet) => !before.has(pet.id))
    expect(created.length).toBeGreaterThan(0)
    for (const pet of created) expect(pet.name.endsWith(` ${RUN_MARKER}`), pet.name).toBe(true)
    expect(report.failed).toEqual([])
    expect(report.passed).toBe(true)
    expect([...report.checked].sort()).toEqual(committed.interactions.map((each) => each.description).sort())
    expect(broker.forVerification()).toMatchObject([{ consumerVersionSelectors: [{ mainBranch: true }] }])
    expect(broker.published()).toEqual([])
  } finally {
    await broker.close()
    await provider.close()
  }
})

describe('the committed pact', () => {
  const committed = JSON.parse(readFileSync(pactFilePath(), 'utf8')) as { interactions: { description: string }[] }

  it('the standalone fake honours every interaction of the committed pact', async () => {
    const provider = await startVerifiableFake()
    try {
      const outcome = await verifyAgainst(provider.baseUrl)
      expect(outcome.failed, plain(outcome.output)).toEqual([])
      expect(outcome.passed).toBe(true)
      expect([...outcome.checked].sort()).toEqual(committed.interactions.map((each) => each.description).sort())

      // The ids the provider states got from the fake, not the consumer's examples, reached the requests.
      const marked = provider.fake.store.all().filter((pet) => pet.name.endsWith(RUN_MARKER))
      const gets = provider.requests.filter((request) => /^GET \/v1\/pets\/[^/?]+$/.test(request))
      expect(gets.length).toBeGreaterThan(0)
      for (const request of gets) {
        const id = request.slice('GET /v1/pets/'.length)
        expect([UNKNOWN_PET_ID, ...marked.map((pet) => String(pet.id))]).toContain(id)
      }
      expect(gets).toContain(`GET /v1/pets/${UNKNOWN_PET_ID}`)
    } finally {
      await provider.close()
    }
  })
})
