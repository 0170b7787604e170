import { readFileSync } from 'node:fs'
import { afterEach, expect, it } from 'vitest'
import { createAnimalsClient } from '../../src/contracts/client.js'
import { pactFilePath } from '../../src/contracts/pact-files.js'
import { createProviderStateHandlers, PROVIDER_STATES, UNKNOWN_PET_ID } from '../../src/contracts/provider-states.js'
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
