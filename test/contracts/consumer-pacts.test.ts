import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MatchersV3, PactV4 } from '@pact-foundation/pact'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AnimalsClient, type AnimalsApiError, createAnimalsClient, isAnimalsApiError } from '../../src/client/client.js'
import { normalisePact, PACT_PARTIES, pactFilePath } from '../../src/contracts/pact-files.js'
import { PROVIDER_STATES } from '../../src/deployment/provider-states.js'
import { API_KEY_PLACEHOLDER } from '../../src/verify/options.js'
import type { NewPet } from '../../src/spec/animals-service.js'
import {
  errorLike,
  INVALID_KEY,
  INVALID_KEY_HEADERS,
  petLike,
  VALID_KEY_HEADERS,
} from '../support/pact-templates.js'

const { constrainedArrayLike, fromProviderState } = MatchersV3

// Each run writes a fresh pact here and compares it with the committed one at the end; `npm run
// pacts` (this file with -u) writes it over the committed one instead.
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'animals-pacts-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const interaction = (): ReturnType<PactV4['addInteraction']> =>
  new PactV4({ ...PACT_PARTIES, dir, logLevel: 'warn' }).addInteraction()

// Pact's mock server records a request's match after it has answered it (an open race upstream:
// pact-foundation/pact-core-mock-server#13, pact-reference#535): under load, executeTest can ask
// before the match is recorded and report a request that was answered as "expected but not
// received" (it failed CI once on Node 24). Each test here waits, after its client got its answer,
// until the mock server says it matched, at most 2 s, before executeTest asks.
type Responding = { pact: { mockServerMatchedSuccessfully(port: number): boolean }; executeTest<T>(test: (mock: { port: number }) => Promise<T>): Promise<T | undefined> }
const responding = Object.getPrototypeOf(new PactV4({ ...PACT_PARTIES, dir: tmpdir() }).addInteraction().uponReceiving('prototype').withRequest('GET', '/').willRespondWith(200)) as Responding
const executeTest = responding.executeTest
responding.executeTest = function <T>(this: Responding, test: (mock: { port: number }) => Promise<T>) {
  return executeTest.call(this, async (mock) => {
    const value = await test(mock)
    for (const until = Date.now() + 2000; !this.pact.mockServerMatchedSuccessfully(mock.port) && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 5))
    return value
  }) as Promise<T | undefined>
}

// Every interaction has its own mock server on a new port. Node's fetch pools keep-alive sockets, and
// on a busy machine it can hand a request a socket whose server has gone (the port reused, or the
// mock server's idle timeout passed): the request never arrives and the interaction fails. A fresh
// connection per request rules that out; Pact records only the headers an interaction names.
const freshConnectionFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers)
  headers.set('connection', 'close')
  return fetch(input, { ...init, headers })
}

const clientAt = (url: string, apiKey?: string): AnimalsClient =>
  createAnimalsClient({ baseUrl: url, fetch: freshConnectionFetch, ...(apiKey === undefined ? {} : { apiKey }) })

const rejection = (promise: Promise<unknown>): Promise<AnimalsApiError> =>
  promise.then(
    (value) => Promise.reject(new Error(`expected an error answer, got ${JSON.stringify(value)}`)),
    (error: unknown) => (isAnimalsApiError(error) ? error : Promise.reject(error)),
  )

const BISCUIT = { name: 'Biscuit', categoryId: 3, status: 'available' } as const
const ANIMAL_STATE = { name: 'Biscuit', categoryId: 3, status: 'available' }
// The example ids are ones the provider is unlikely to have: the state's id must reach the request.
const PET_PATH = fromProviderState('/pets/${petId}', '/pets/4242')

/** One interaction: its description, and the test that records it (given the description, so it is written once). */
type ConsumerCase = { readonly description: string; run(description: string): Promise<unknown> }

const listCases: ConsumerCase[] = [
  {
    description: 'a request to list animals with the default limit',
    run: (description) =>
      interaction()
        .given(PROVIDER_STATES.animalsExist, { atLeast: 21 })
        .uponReceiving(description)
        .withRequest('GET', '/pets', (request) => request.headers(VALID_KEY_HEADERS))
        // limit is the page size: with more than 20 animals, the default page holds exactly 20.
        .willRespondWith(200, (response) =>
          response.jsonBody(constrainedArrayLike(petLike({ id: 1, name: 'Bella', categoryId: 1 }), 20, 20)),
        )
        .executeTest(async (mock) => {
          const pets = await clientAt(mock.url, API_KEY_PLACEHOLDER).listPets()
          expect(pets).toHaveLength(20)
          expect(pets[0]).toEqual({ id: 1, name: 'Bella', categoryId: 1 })
        }),
  },
  {
    description: 'a request to list at most 3 animals',
    run: (description) =>
      interaction()
        .given(PROVIDER_STATES.animalsExist, { atLeast: 4 })
        .uponReceiving(description)
        .withRequest('GET', '/pets', (request) => request.query({ limit: '3' }).headers(VALID_KEY_HEADERS))
        .willRespondWith(200, (response) =>
          response.jsonBody(constrainedArrayLike(petLike({ id: 2, name: 'Milo', categoryId: 2 }), 1, 3)),
        )
        .executeTest(async (mock) => {
          expect(await clientAt(mock.url, API_KEY_PLACEHOLDER).listPets({ limit: 3 })).toHaveLength(1)
        }),
  },
  {
    description: 'a request to list sold animals',
    run: (description) =>
      interaction()
        .given(PROVIDER_STATES.animalsExist, { atLeast: 1, status: 'sold' })
        .uponReceiving(description)
        .withRequest('GET', '/pets', (request) => request.query({ status: 'sold' }).headers(VALID_KEY_HEADERS))
        .willRespondWith(200, (response) =>
          response.jsonBody(constrainedArrayLike(petLike({ id: 5, name: 'Luna', categoryId: 2, status: 'sold' }), 1, 20)),
        )
        .executeTest(async (mock) => {
          const pets = await clientAt(mock.url, API_KEY_PLACEHOLDER).listPets({ status: 'sold' })
          expect(pets.map((pet) => pet.status)).toEqual(['sold'])
        }),
  },
]

const createCases: ConsumerCase[] = [
  {
    description: 'a request to add an animal with a status',
    run: (description) =>
      interaction()
        .uponReceiving(description)
        .withRequest('POST', '/pets', (request) => request.headers(VALID_KEY_HEADERS).jsonBody(BISCUIT))
        .willRespondWith(201, (response) =>
          response.jsonBody(petLike({ id: 31, ...BISCUIT })),
        )
        .executeTest(async (mock) => {
          expect(await clientAt(mock.url, API_KEY_PLACEHOLDER).createPet(BISCUIT)).toEqual({ id: 31, ...BISCUIT })
        }),
  },
  {
    description: 'a request to add an animal without a status',
    run: (description) =>
      interaction()
        .uponReceiving(description)
        .withRequest('POST', '/pets', (request) => request.headers(VALID_KEY_HEADERS).jsonBody({ name: 'Milo', categoryId: 2 }))
        // The spec states no default status: the answer may carry one or not, so it is not listed.
        .willRespondWith(201, (response) =>
          response.jsonBody(petLike({ id: 32, name: 'Milo', categoryId: 2 })),
        )
        .executeTest(async (mock) => {
          const pet = await clientAt(mock.url, API_KEY_PLACEHOLDER).createPet({ name: 'Milo', categoryId: 2 })
          expect(pet).toEqual({ id: 32, name: 'Milo', categoryId: 2 })
        }),
  },
  ...(
    [
      ['name', { categoryId: 3 }],
      ['categoryId', { name: 'Biscuit' }],
    ] as const
  ).map(
    ([field, body]): ConsumerCase => ({
      description: `a request to add an animal without a ${field}`,
      run: (description) =>
        interaction()
          .uponReceiving(description)
          .withRequest('POST', '/pets', (request) => request.headers(VALID_KEY_HEADERS).jsonBody(body))
          .willRespondWith(400, (response) =>
            response.jsonBody(errorLike(400, { code: 'invalid_body', message: `Field '${field}' is required.` })),
          )
          .executeTest(async (mock) => {
            // The client's types forbid this body; a consumer bug or untyped caller can still send it.
            const error = await rejection(clientAt(mock.url, API_KEY_PLACEHOLDER).createPet(body as Partial<NewPet> as NewPet))
            expect(error).toMatchObject({ status: 400, body: { status: 400 } })
          }),
    }),
  ),
]

const getCases: ConsumerCase[] = [
  {
    description: 'a request to get an animal',
    run: (description) =>
      interaction()
        .given(PROVIDER_STATES.animalExists, ANIMAL_STATE)
        .uponReceiving(description)
        .withRequest('GET', PET_PATH, (request) => request.headers(VALID_KEY_HEADERS))
        // The operation is deprecated (spec 9.2), but the spec does not say which headers say so:
        // the pact pins none of them, and `verify` warns of the removal instead.
        .willRespondWith(200, (response) => response.jsonBody(petLike({ id: 4242, ...BISCUIT })))
        .executeTest(async (mock) => {
          const { pet } = await clientAt(mock.url, API_KEY_PLACEHOLDER).getPet(4242)
          expect(pet).toEqual({ id: 4242, ...BISCUIT })
        }),
  },
  {
    description: 'a request to get an animal that does not exist',
    run: (description) =>
      interaction()
        .given(PROVIDER_STATES.noAnimalWithGivenId)
        .uponReceiving(description)
        .withRequest('GET', fromProviderState('/pets/${petId}', '/pets/999999'), (request) => request.headers(VALID_KEY_HEADERS))
        .willRespondWith(404, (response) =>
          response.jsonBody(errorLike(404, { code: 'pet_not_found', message: 'No animal has id 999999.' })),
        )
        .executeTest(async (mock) => {
          const error = await rejection(clientAt(mock.url, API_KEY_PLACEHOLDER).getPet(999999))
          expect(error).toMatchObject({ status: 404, body: { status: 404 } })
        }),
  },
]

type Operation = {
  readonly name: string
  readonly state?: readonly [string, Record<string, string | number>]
  readonly method: 'GET' | 'POST'
  readonly path: string | ReturnType<typeof fromProviderState<string>>
  readonly body?: unknown
  call(client: AnimalsClient): Promise<unknown>
}

const OPERATIONS: readonly Operation[] = [
  { name: 'list animals', method: 'GET', path: '/pets', call: (client) => client.listPets() },
  {
    name: 'add an animal',
    method: 'POST',
    path: '/pets',
    body: { name: 'Biscuit', categoryId: 3 },
    call: (client) => client.createPet({ name: 'Biscuit', categoryId: 3 }),
  },
  {
    name: 'get an animal',
    // The animal exists, so only the missing or refused key can explain a 401.
    state: [PROVIDER_STATES.animalExists, ANIMAL_STATE],
    method: 'GET',
    path: PET_PATH,
    call: (client) => client.getPet(4242),
  },
]

const authCases: ConsumerCase[] = OPERATIONS.flatMap((operation) =>
  (
    [
      ['without a key', undefined, {}],
      ['with an invalid key', INVALID_KEY, INVALID_KEY_HEADERS],
    ] as const
  ).map(
    ([how, key, headers]): ConsumerCase => ({
      description: `a request to ${operation.name} ${how}`,
      run: (description) => {
        const start = interaction()
        const given = operation.state === undefined ? start : start.given(...operation.state)
        return given
          .uponReceiving(description)
          .withRequest(operation.method, operation.path, (request) => {
            request.headers(headers)
            if (operation.body !== undefined) request.jsonBody(operation.body)
          })
          .willRespondWith(401, (response) =>
            response.jsonBody(errorLike(401, { code: 'unauthorized', message: 'The API key is not valid.' })),
          )
          .executeTest(async (mock) => {
            const error = await rejection(operation.call(clientAt(mock.url, key)))
            expect(error).toMatchObject({ status: 401, body: { status: 401 } })
          })
      },
    }),
  ),
)

const CASES = [...listCases, ...createCases, ...getCases, ...authCases]

for (const { description, run } of CASES) {
  it(`pact: ${description}`, async () => {
    await run(description)
  })
}

// Runs last: vitest runs the tests of a file in order, one at a time.
it('the committed pact file is the one these tests write (run `npm run pacts` after changing them)', async () => {
  const generatedText = readFileSync(pactFilePath(dir), 'utf8')
  const generated = JSON.parse(generatedText) as { interactions: { description: string }[] }
  expect(generated.interactions.map((each) => each.description).sort()).toEqual(CASES.map((each) => each.description).sort())
  const committedText = readOrUndefined(pactFilePath())
  const same =
    committedText !== undefined &&
    JSON.stringify(normalisePact(JSON.parse(committedText))) === JSON.stringify(normalisePact(generated))
  // Versions of the libraries alone do not make the committed file stale. Only `npm run pacts`
  // (vitest --update) writes it; any other run, local or CI, fails on a missing or stale file.
  if (isUpdating()) {
    await expect(same ? committedText : generatedText).toMatchFileSnapshot(pactFilePath())
    return
  }
  expect(committedText, 'no committed pact: run `npm run pacts` and commit contracts/pacts/').toBeDefined()
  expect(same, 'stale pact: run `npm run pacts` and commit contracts/pacts/').toBe(true)
})

function isUpdating(): boolean {
  // vitest's snapshot state says whether the run was started with --update ('all').
  return (expect.getState().snapshotState as unknown as { _updateSnapshot?: string })._updateSnapshot === 'all'
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}
