import { readFileSync } from 'node:fs'
import { afterEach, expect, it } from 'vitest'
import { createAnimalsClient } from '../../src/client/client.js'
import { pactFilePath } from '../../src/contracts/pact-files.js'
import { createProviderStateHandlers, PROVIDER_STATES, UNKNOWN_PET_ID } from '../../src/deployment/provider-states.js'
import { PROVIDER_KEY, startVerifiableFake, type VerifiableFake } from '../support/pact-verification.js'

let provider: VerifiableFake | undefined
afterEach(async () => {
  await provider?.close()
  provider = undefined
})

async function handlersOnEmptyFake(marker?: string) {
  provider = await startVerifiableFake({ pets: [] })
  const options = { baseUrl: provider.baseUrl, apiKey: PROVIDER_KEY }
  return { provider, handlers: createProviderStateHandlers(marker === undefined ? options : { ...options, marker }) }
}

it('"an animal exists" adds the animal through POST /pets, marked, and gives the id the service assigned', async () => {
  const { provider, handlers } = await handlersOnEmptyFake('[run-7]')
  provider.fake.reset([{ id: 500, name: 'Older', categoryId: 1 }])
  const values = await handlers[PROVIDER_STATES.animalExists]({ name: 'Biscuit', categoryId: 3, status: 'available' })
  expect(values).toEqual({ petId: '501' })
  expect(JSON.parse(provider.fake.store.get(501) ?? '')).toEqual({ id: 501, name: 'Biscuit [run-7]', categoryId: 3, status: 'available' })
  expect(provider.requests).toEqual(['POST /v1/pets'])
})

it('"an animal exists" leaves status out when the state gives none, and the name as it is without a marker', async () => {
  const { provider, handlers } = await handlersOnEmptyFake()
  const values = await handlers[PROVIDER_STATES.animalExists]({ name: 'Milo', categoryId: 2 })
  expect(JSON.parse(provider.fake.store.get(Number(values?.petId)) ?? '')).toEqual({ id: 1, name: 'Milo', categoryId: 2 })
})

it('"animals exist" adds only the animals missing, with the status asked for, through the public API', async () => {
  const { provider, handlers } = await handlersOnEmptyFake('[run-8]')
  await handlers[PROVIDER_STATES.animalsExist]({ atLeast: 3 })
  expect(provider.fake.store.size).toBe(3)
  await handlers[PROVIDER_STATES.animalsExist]({ atLeast: 2 })
  expect(provider.fake.store.size).toBe(3)
  await handlers[PROVIDER_STATES.animalsExist]({ atLeast: 2, status: 'sold' })
  const sold = provider.fake.store.list(100, 'sold').map((text) => (JSON.parse(text) as { name: string }).name)
  expect(sold).toEqual(['Pact animal 1 [run-8]', 'Pact animal 2 [run-8]'])
  expect(new Set(provider.requests)).toEqual(new Set(['GET /v1/pets?limit=3', 'GET /v1/pets?limit=2', 'GET /v1/pets?limit=2&status=sold', 'POST /v1/pets']))
})

it('"no animal exists with the given id" gives the largest int64, which a service counting ids up from 1 never reaches', async () => {
  const handlers = createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: stubService(0).fetch })
  expect(await handlers[PROVIDER_STATES.noAnimalWithGivenId]()).toEqual({ petId: '9223372036854775807' })
  expect(BigInt(UNKNOWN_PET_ID)).toBe(2n ** 63n - 1n)
})

it('"no animal exists with the given id" gives an id the service answers 404 for', async () => {
  const { provider, handlers } = await handlersOnEmptyFake()
  const values = await handlers[PROVIDER_STATES.noAnimalWithGivenId]()
  expect(values).toEqual({ petId: UNKNOWN_PET_ID })
  const client = createAnimalsClient({ baseUrl: provider.baseUrl, apiKey: PROVIDER_KEY })
  await expect(client.getPet(UNKNOWN_PET_ID)).rejects.toMatchObject({ status: 404 })
})

it('calls the service through the fetch it is given', async () => {
  provider = await startVerifiableFake({ pets: [] })
  const seen: string[] = []
  const fetchSpy: typeof fetch = (input, init) => {
    seen.push(`${init?.method ?? 'GET'} ${String(input)}`)
    return fetch(input, init)
  }
  const handlers = createProviderStateHandlers({ baseUrl: provider.baseUrl, apiKey: PROVIDER_KEY, fetch: fetchSpy })
  await handlers[PROVIDER_STATES.animalExists]({ name: 'Pip', categoryId: 1 })
  expect(seen).toEqual([`POST ${provider.baseUrl}/pets`])
})

it('refuses parameters a pact should not carry, naming the state', async () => {
  const handlers = createProviderStateHandlers({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: PROVIDER_KEY })
  await expect(handlers[PROVIDER_STATES.animalExists]({ categoryId: 1 })).rejects.toThrow(PROVIDER_STATES.animalExists)
  await expect(handlers[PROVIDER_STATES.animalExists]({ name: 'x', categoryId: 1.5 })).rejects.toThrow(TypeError)
  await expect(handlers[PROVIDER_STATES.animalExists]({ name: 'x', categoryId: 1, status: 'gone' })).rejects.toThrow(TypeError)
  await expect(handlers[PROVIDER_STATES.animalsExist]({ atLeast: 0 })).rejects.toThrow(PROVIDER_STATES.animalsExist)
  await expect(handlers[PROVIDER_STATES.animalsExist]({ atLeast: 101 })).rejects.toThrow(TypeError)
  await expect(handlers[PROVIDER_STATES.animalsExist]()).rejects.toThrow(TypeError)
})

it('has a handler for every provider state the committed pact uses', () => {
  const pact = JSON.parse(readFileSync(pactFilePath(), 'utf8')) as { interactions: { providerStates?: { name: string }[] }[] }
  const used = new Set(pact.interactions.flatMap((each) => (each.providerStates ?? []).map((state) => state.name)))
  expect(used.size).toBeGreaterThan(0)
  const handled = Object.keys(createProviderStateHandlers({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' }))
  expect([...used].filter((state) => !handled.includes(state))).toEqual([])
})

it('gives up on a call to the service after timeoutMs', async () => {
  provider = await startVerifiableFake({ pets: [] })
  provider.fake.force({ method: 'POST', path: '/pets', delayMs: 10_000 })
  const handlers = createProviderStateHandlers({ baseUrl: provider.baseUrl, apiKey: PROVIDER_KEY, timeoutMs: 50 })
  await expect(handlers[PROVIDER_STATES.animalExists]({ name: 'Pip', categoryId: 1 })).rejects.toMatchObject({ name: 'TimeoutError' })
})

/** A service in a fetch: `count` animals of each status are listed; creations are recorded and answered 201. */
function stubService(listed: number) {
  const calls: { method: string; url: string; body?: unknown; signal: boolean }[] = []
  let nextId = 100
  const stub: typeof fetch = async (input, init) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined
    calls.push({ method, url, ...(body === undefined ? {} : { body }), signal: init?.signal instanceof AbortSignal })
    if (method === 'POST') return Response.json({ id: nextId++, ...body }, { status: 201 })
    const limit = Number(new URL(url).searchParams.get('limit'))
    return Response.json(Array.from({ length: Math.min(limit, listed) }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: 1 })))
  }
  return { fetch: stub, calls }
}

it('"animals exist" creates exactly the shortfall, numbered on from what exists, in category 1', async () => {
  const service = stubService(2)
  const handlers = createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: service.fetch, marker: '[m]' })
  expect(await handlers[PROVIDER_STATES.animalsExist]({ atLeast: 4 })).toBeUndefined()
  expect(service.calls).toEqual([
    { method: 'GET', url: 'https://s.example/v1/pets?limit=4', signal: false },
    { method: 'POST', url: 'https://s.example/v1/pets', body: { name: 'Pact animal 3 [m]', categoryId: 1 }, signal: false },
    { method: 'POST', url: 'https://s.example/v1/pets', body: { name: 'Pact animal 4 [m]', categoryId: 1 }, signal: false },
  ])
})

it('"animals exist" creates nothing when enough animals are listed, and accepts atLeast from 1 to 100', async () => {
  for (const atLeast of [1, 100]) {
    const service = stubService(100)
    const handlers = createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: service.fetch })
    await handlers[PROVIDER_STATES.animalsExist]({ atLeast, status: 'pending' })
    expect(service.calls.map((each) => `${each.method} ${each.url}`)).toEqual([`GET https://s.example/v1/pets?limit=${atLeast}&status=pending`])
  }
})

it('"animals exist" creates the shortfall with the status asked for, and on an empty service all of them', async () => {
  const service = stubService(0)
  const handlers = createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: service.fetch })
  await handlers[PROVIDER_STATES.animalsExist]({ atLeast: 1, status: 'sold' })
  expect(service.calls.map((each) => each.body)).toEqual([undefined, { name: 'Pact animal 1', categoryId: 1, status: 'sold' }])
})

it('"animals exist" refuses an atLeast that is not a whole number from 1 to 100, or an unknown status', async () => {
  const handlers = createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: stubService(0).fetch })
  const needs = '"animals exist" needs atLeast, an integer from 1 to 100'
  for (const params of [{ atLeast: 0 }, { atLeast: 101 }, { atLeast: 2.5 }, { atLeast: '3' }, {}, null, 'atLeast=3']) {
    await expect(handlers[PROVIDER_STATES.animalsExist](params), JSON.stringify(params)).rejects.toThrow(params === null || params === 'atLeast=3' ? '"animals exist" needs parameters' : needs)
  }
  await expect(handlers[PROVIDER_STATES.animalsExist]({ atLeast: 1, status: 'gone' })).rejects.toThrow('"animals exist" needs a PetStatus or no status')
})

it('"an animal exists" refuses a name that is not a string, a categoryId that is not a safe integer, or an unknown status', async () => {
  const service = stubService(0)
  const handlers = createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: service.fetch })
  const needs = '"an animal exists" needs a string name, an integer categoryId and a PetStatus or no status'
  for (const params of [{ name: 7, categoryId: 1 }, { name: 'x', categoryId: '1' }, { name: 'x', categoryId: 2 ** 53 }, { name: 'x', categoryId: 1, status: 'SOLD' }]) {
    await expect(handlers[PROVIDER_STATES.animalExists](params), JSON.stringify(params)).rejects.toThrow(needs)
  }
  await expect(handlers[PROVIDER_STATES.animalExists](undefined)).rejects.toThrow('"an animal exists" needs parameters')
  expect(service.calls).toEqual([])
  expect(await handlers[PROVIDER_STATES.animalExists]({ name: 'x', categoryId: -3, status: 'pending' })).toEqual({ petId: '100' })
  expect(service.calls[0]?.body).toEqual({ name: 'x', categoryId: -3, status: 'pending' })
})

it('gives every call to the service a deadline when timeoutMs is given, and none otherwise', async () => {
  const timed = stubService(0)
  await createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: timed.fetch, timeoutMs: 1000 })[PROVIDER_STATES.animalsExist]({ atLeast: 1 })
  expect(timed.calls.map((each) => each.signal)).toEqual([true, true])
  const untimed = stubService(0)
  await createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: untimed.fetch })[PROVIDER_STATES.animalsExist]({ atLeast: 1 })
  expect(untimed.calls.map((each) => each.signal)).toEqual([false, false])
})

it('fails a state with the service\'s own error answer', async () => {
  const refusing: typeof fetch = async () => Response.json({ code: 'unauthorized', message: 'No key.', status: 401 }, { status: 401 })
  const handlers = createProviderStateHandlers({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: refusing })
  await expect(handlers[PROVIDER_STATES.animalExists]({ name: 'x', categoryId: 1 })).rejects.toMatchObject({ status: 401, message: '401 unauthorized: No key.' })
})
