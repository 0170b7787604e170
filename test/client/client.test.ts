import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createAnimalsClient, isAnimalsApiError } from '../../src/client/client.js'
import { createFake, type Fake } from '../../src/create-fake.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { shippedPets } from '../support/fixtures.js'

const pets = shippedPets('default')
let fake: Fake
let server: RunningServer
beforeAll(async () => {
  fake = createFake({ pets, keys: ['client-key'] })
  server = await startServer({ app: createSite({ api: fake }) })
})
afterAll(() => server.close())
beforeEach(() => fake.reset())

const client = (apiKey = 'client-key') => createAnimalsClient({ baseUrl: `${server.url}${API_BASE}/`, apiKey })

it('lists, creates and gets animals with the service types', async () => {
  expect(await client().listPets()).toEqual(pets.slice(0, 20))
  expect(await client().listPets({ status: 'sold', limit: 2 })).toEqual(pets.filter((p) => p.status === 'sold').slice(0, 2))
  const created = await client().createPet({ name: 'Pip', categoryId: 3 })
  expect(created).toEqual({ id: pets.length + 1, name: 'Pip', categoryId: 3 })
  const { pet, deprecation } = await client().getPet(created.id)
  expect(pet).toEqual(created)
  expect(deprecation.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  expect(deprecation.deprecation).toMatch(/^@\d+$/)
  expect(deprecation.link).toContain('/v1/pets')
})

it('surfaces error answers as a typed error carrying the Error body', async () => {
  const refused = await client('wrong').listPets().catch((error: unknown) => error)
  expect(isAnimalsApiError(refused)).toBe(true)
  expect(refused).toMatchObject({ status: 401, body: { code: 'unauthorized', status: 401 } })
  const missing = await client().getPet(999).catch((error: unknown) => error)
  expect(missing).toMatchObject({ status: 404, body: { code: 'pet_not_found', status: 404 } })
  expect(isAnimalsApiError(missing) && missing.deprecation.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  const invalid = await client().createPet({ name: 'x' } as never).catch((error: unknown) => error)
  expect(invalid).toMatchObject({ status: 400, body: { code: 'invalid_body' } })
})

it('sends no Authorization at all when no key is given, and the service answers 401', async () => {
  const seen: (string | null)[] = []
  const spy: typeof fetch = (input, init) => {
    seen.push(new Headers(init?.headers).get('authorization'))
    return fetch(input, init)
  }
  const anonymous = createAnimalsClient({ baseUrl: `${server.url}${API_BASE}`, fetch: spy })
  await expect(anonymous.listPets()).rejects.toMatchObject({ status: 401, body: { code: 'unauthorized', status: 401 } })
  expect(seen).toEqual([null])
})

type Sent = { url: string; method: string; headers: Headers; body: string | undefined }

/** A fetch that records what the client sends and answers `status` with `body` and `headers`. */
function stubFetch(status: number, body: string, headers: Record<string, string> = {}): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = []
  const stub: typeof fetch = async (input, init) => {
    sent.push({ url: String(input), method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: init?.body === undefined ? undefined : String(init.body) })
    return new Response(status === 204 ? null : body, { status, headers })
  }
  return { fetch: stub, sent }
}

const PET = { id: 7, name: 'Rex', categoryId: 2, status: 'sold' }

it('sends the key as a bearer token and asks for JSON, under the base without its trailing slashes', async () => {
  const { fetch: stub, sent } = stubFetch(200, JSON.stringify([PET]))
  const pets = await createAnimalsClient({ baseUrl: 'https://staging.example/v1//', apiKey: 'k-1', fetch: stub }).listPets()
  expect(pets).toEqual([PET])
  expect(sent.map((each) => `${each.method} ${each.url}`)).toEqual(['GET https://staging.example/v1/pets'])
  expect(sent[0]?.headers.get('authorization')).toBe('Bearer k-1')
  expect(sent[0]?.headers.get('accept')).toBe('application/json')
})

it('puts only the query parameters given into the list request', async () => {
  const { fetch: stub, sent } = stubFetch(200, '[]')
  const client = createAnimalsClient({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: stub })
  await client.listPets({ limit: 5 })
  await client.listPets({ status: 'pending' })
  await client.listPets({ limit: 1, status: 'sold' })
  await client.listPets({})
  expect(sent.map((each) => each.url)).toEqual([
    'https://s.example/v1/pets?limit=5',
    'https://s.example/v1/pets?status=pending',
    'https://s.example/v1/pets?limit=1&status=sold',
    'https://s.example/v1/pets',
  ])
})

it('creates an animal with a JSON POST of the new animal', async () => {
  const { fetch: stub, sent } = stubFetch(201, JSON.stringify(PET))
  const created = await createAnimalsClient({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: stub }).createPet({ name: 'Rex', categoryId: 2, status: 'sold' })
  expect(created).toEqual(PET)
  expect(sent[0]).toMatchObject({ url: 'https://s.example/v1/pets', method: 'POST', body: '{"name":"Rex","categoryId":2,"status":"sold"}' })
  expect(sent[0]?.headers.get('content-type')).toBe('application/json')
  expect(sent[0]?.headers.get('authorization')).toBe('Bearer k')
})

it('gets an animal by an id encoded into the path, with the deprecation headers the answer carries', async () => {
  const headers = { deprecation: '@1700000000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }
  const { fetch: stub, sent } = stubFetch(200, JSON.stringify(PET), headers)
  const client = createAnimalsClient({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: stub })
  expect(await client.getPet('9223372036854775807')).toEqual({ pet: PET, deprecation: headers })
  await client.getPet('a/b c')
  expect(sent.map((each) => each.url)).toEqual(['https://s.example/v1/pets/9223372036854775807', 'https://s.example/v1/pets/a%2Fb%20c'])
  const bare = stubFetch(200, JSON.stringify(PET))
  expect((await createAnimalsClient({ baseUrl: 'https://s.example/v1', fetch: bare.fetch }).getPet(7)).deprecation).toEqual({ deprecation: null, sunset: null, link: null })
})

it('throws the Error body of an error answer, with its status and message', async () => {
  const { fetch: stub } = stubFetch(404, JSON.stringify({ code: 'pet_not_found', message: 'No such animal.', status: 404 }), { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' })
  const error = await createAnimalsClient({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: stub }).getPet(1).catch((caught: unknown) => caught)
  expect(isAnimalsApiError(error)).toBe(true)
  expect(error).toMatchObject({
    name: 'AnimalsApiError',
    message: '404 pet_not_found: No such animal.',
    status: 404,
    body: { code: 'pet_not_found', message: 'No such animal.', status: 404 },
    deprecation: { deprecation: null, sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: null },
  })
  expect(isAnimalsApiError(new Error('404 pet_not_found: No such animal.'))).toBe(false)
})

it('stands in an Error body when an error answer has none, or an incomplete one', async () => {
  const unknown = { code: 'unknown', message: 'The service answered 502 without an Error body.', status: 502 }
  for (const body of [
    '<html>Bad gateway</html>',
    '',
    'null',
    '{"message":"m","status":502}',
    '{"code":"c","status":502}',
    '{"code":"c","message":"m"}',
    '{"code":"c","message":"m","status":"502"}',
    '{"code":1,"message":"m","status":502}',
  ]) {
    const { fetch: stub } = stubFetch(502, body)
    const error = await createAnimalsClient({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: stub }).listPets().catch((caught: unknown) => caught)
    expect(error, body).toMatchObject({ status: 502, body: unknown, message: '502 unknown: The service answered 502 without an Error body.' })
  }
})

it('refuses a success answer that is not JSON, naming the request', async () => {
  const { fetch: stub } = stubFetch(200, 'OK')
  const client = createAnimalsClient({ baseUrl: 'https://s.example/v1', apiKey: 'k', fetch: stub })
  await expect(client.listPets({ limit: 2 })).rejects.toThrow(new TypeError('GET /pets?limit=2 answered 200 without JSON'))
  await expect(client.createPet({ name: 'Rex', categoryId: 2 })).rejects.toThrow(new TypeError('POST /pets answered 200 without JSON'))
})
