import { expect } from 'vitest'
import type { ApiClient } from '../support/api-client.js'
import { TEST_KEY } from '../support/api-client.js'
import { expectDeprecationHeaders, expectError, expectJsonType, expectPetShape } from '../support/expectations.js'
import type { Pet, PetStatus } from '../../src/spec/animals-service.js'

/** What each case gets: a client for the API under test and the animals the fake started with. */
export type CaseContext = {
  readonly api: ApiClient
  /** The starting animals, in ascending id order. */
  readonly pets: readonly Pet[]
  /** The path prefix of the API as the client sees it, e.g. `/v1`. */
  readonly basePath: string
  /**
   * The id the next creation gets. The spec asks only that ids be unique: the in-memory fake goes on
   * after the highest starting animal when it is reset, a durable store (Redis) after the highest it
   * ever handed out, so that no id names two animals. After the highest starting animal unless given.
   */
  readonly firstNewId?: number
}

/** The id the next creation of a case gets. */
export const firstNewIdOf = (context: CaseContext): number => context.firstNewId ?? Math.max(0, ...context.pets.map((pet) => Number(pet.id))) + 1

/** One rule of the spec, checked the way a client meets it. */
export type ConformanceCase = { readonly name: string; run(context: CaseContext): Promise<void> }

/** Keys the conformance fakes accept; anything else is refused. */
export const CONFORMANCE_KEYS = [TEST_KEY, 'test-key-2'] as const

const NEW_PET = { name: 'Biscuit', categoryId: 3, status: 'available' } as const

const OPERATIONS = [
  { name: 'listPets', method: 'GET', path: '/pets', body: undefined },
  { name: 'createPet', method: 'POST', path: '/pets', body: NEW_PET },
  { name: 'getPet', method: 'GET', path: '/pets/1', body: undefined },
] as const

const petsWith = (pets: readonly Pet[], status?: PetStatus): readonly Pet[] =>
  status === undefined ? pets : pets.filter((pet) => pet.status === status)

const highestId = (pets: readonly Pet[]): number => Math.max(0, ...pets.map((pet) => Number(pet.id)))

const authCases: ConformanceCase[] = OPERATIONS.flatMap((operation) => {
  const send = (api: ApiClient, headers: Record<string, string>) =>
    api.call(operation.path, { method: operation.method, body: operation.body, headers })
  return [
    {
      name: `${operation.name}: 401 with the Error body when the Authorization header is missing`,
      async run({ api }) {
        const result = await send(api, {})
        expectError(result, 401, 'unauthorized')
        expect(result.headers.get('www-authenticate')).toMatch(/^Bearer/)
      },
    },
    {
      name: `${operation.name}: 401 when the scheme is not Bearer`,
      async run({ api }) {
        expectError(await send(api, { authorization: `Basic ${btoa(`user:${TEST_KEY}`)}` }), 401, 'unauthorized')
        expectError(await send(api, { authorization: TEST_KEY }), 401, 'unauthorized')
      },
    },
    {
      name: `${operation.name}: 401 when the bearer token is empty`,
      async run({ api }) {
        expectError(await send(api, { authorization: 'Bearer' }), 401, 'unauthorized')
        expectError(await send(api, { authorization: 'Bearer    ' }), 401, 'unauthorized')
      },
    },
    {
      name: `${operation.name}: 401 for a key that is not accepted, without repeating the key`,
      async run({ api }) {
        const result = await send(api, { authorization: 'Bearer wrong-key-7f3a9c' })
        expectError(result, 401, 'unauthorized')
        expect(result.text).not.toContain('wrong-key-7f3a9c')
        expect(result.headers.get('www-authenticate')).toContain('invalid_token')
      },
    },
    {
      name: `${operation.name}: the Bearer scheme is case-insensitive and every accepted key works`,
      async run({ api }) {
        for (const authorization of [`bearer ${TEST_KEY}`, `BEARER ${TEST_KEY}`, `Bearer ${CONFORMANCE_KEYS[1]}`]) {
          const result = await send(api, { authorization })
          expect(result.status, authorization).toBe(operation.method === 'POST' ? 201 : 200)
        }
      },
    },
  ]
})

const authFirstCases: ConformanceCase[] = [
  {
    name: 'auth is checked before anything else: bad input without a key is 401, not 400, 404 or 405',
    async run({ api }) {
      expectError(await api.call('/pets', { query: 'limit=0' }), 401, 'unauthorized')
      expectError(await api.call('/pets', { method: 'POST', body: '{"name":' }), 401, 'unauthorized')
      expectError(await api.call('/pets/abc'), 401, 'unauthorized')
      expectError(await api.call('/owners'), 401, 'unauthorized')
      expectError(await api.call('/pets', { method: 'DELETE' }), 401, 'unauthorized')
    },
  },
]

const listCases: ConformanceCase[] = [
  {
    name: 'listPets: default limit is 20, in ascending id order',
    async run({ api, pets }) {
      expect(pets.length).toBeGreaterThan(20)
      const result = await api.authed('/pets')
      expect(result.status).toBe(200)
      expectJsonType(result)
      expect(result.json).toEqual(pets.slice(0, 20))
    },
  },
  {
    name: 'listPets: limit bounds 1 and 100 are accepted and cap the list',
    async run({ api, pets }) {
      expect((await api.authed('/pets', { query: 'limit=1' })).json).toEqual(pets.slice(0, 1))
      expect((await api.authed('/pets', { query: 'limit=7' })).json).toEqual(pets.slice(0, 7))
      expect((await api.authed('/pets', { query: 'limit=100' })).json).toEqual(pets.slice(0, 100))
    },
  },
  ...(['available', 'pending', 'sold'] as const).map(
    (status): ConformanceCase => ({
      name: `listPets: status=${status} returns only animals with that status`,
      async run({ api, pets }) {
        const result = await api.authed('/pets', { query: `status=${status}&limit=100` })
        expect(result.status).toBe(200)
        const listed = result.json as Pet[]
        expect(listed.length).toBeGreaterThan(0)
        expect(listed).toEqual(petsWith(pets, status).slice(0, 100))
        for (const pet of listed) expect(pet.status).toBe(status)
      },
    }),
  ),
  {
    name: 'listPets: status and limit combine',
    async run({ api, pets }) {
      const result = await api.authed('/pets', { query: 'status=available&limit=3' })
      expect(result.json).toEqual(petsWith(pets, 'available').slice(0, 3))
    },
  },
  {
    name: 'listPets: an animal created without a status is listed, but under no status filter',
    async run({ api }) {
      const created = (await api.authed('/pets', { method: 'POST', body: { name: 'Nameless', categoryId: 1 } }))
        .json as Pet
      const all = (await api.authed('/pets', { query: 'limit=100' })).json as Pet[]
      expect(all.at(-1)).toEqual(created)
      for (const status of ['available', 'pending', 'sold']) {
        const listed = (await api.authed('/pets', { query: `status=${status}&limit=100` })).json as Pet[]
        expect(listed.map((pet) => pet.id)).not.toContain(created.id)
      }
    },
  },
  ...['0', '101', '-1', 'abc', '1.5', '', '1e1', '+5', '20abc'].map(
    (limit): ConformanceCase => ({
      name: `listPets: limit=${JSON.stringify(limit)} is a 400 naming the parameter`,
      async run({ api }) {
        expectError(await api.authed('/pets', { query: `limit=${encodeURIComponent(limit)}` }), 400, 'invalid_parameter', 'limit')
      },
    }),
  ),
  ...['bogus', 'AVAILABLE', ''].map(
    (status): ConformanceCase => ({
      name: `listPets: status=${JSON.stringify(status)} is a 400 naming the parameter`,
      async run({ api }) {
        expectError(await api.authed('/pets', { query: `status=${status}` }), 400, 'invalid_parameter', 'status')
      },
    }),
  ),
  {
    name: 'listPets: a repeated limit or status is a 400 naming the parameter',
    async run({ api }) {
      expectError(await api.authed('/pets', { query: 'limit=5&limit=6' }), 400, 'invalid_parameter', 'limit')
      expectError(await api.authed('/pets', { query: 'limit=5&limit=5' }), 400, 'invalid_parameter', 'limit')
      expectError(await api.authed('/pets', { query: 'status=sold&status=sold' }), 400, 'invalid_parameter', 'status')
    },
  },
  {
    name: 'listPets: parameters the spec does not name are ignored',
    async run({ api, pets }) {
      expect((await api.authed('/pets', { query: 'page=2&_=123' })).json).toEqual(pets.slice(0, 20))
    },
  },
]

const createCases: ConformanceCase[] = [
  {
    name: 'createPet: 201 with the Pet, its new id and a Location that gets it',
    async run(context) {
      const { api, basePath } = context
      const result = await api.authed('/pets', { method: 'POST', body: NEW_PET })
      expect(result.status).toBe(201)
      expectJsonType(result)
      expectPetShape(result.json)
      const created = result.json as Pet
      expect(created).toEqual({ id: firstNewIdOf(context), ...NEW_PET })
      expect(result.headers.get('location')).toBe(`${basePath}/pets/${created.id}`)
      const fetched = await api.authed(`/pets/${created.id}`)
      expect(fetched.json).toEqual(created)
    },
  },
  {
    name: 'createPet: ids are assigned in memory, monotonic, after the highest seeded id',
    async run(context) {
      const { api } = context
      const ids: unknown[] = []
      for (let i = 0; i < 3; i++) {
        ids.push(((await api.authed('/pets', { method: 'POST', body: NEW_PET })).json as Pet).id)
      }
      const first = firstNewIdOf(context)
      expect(ids).toEqual([first, first + 1, first + 2])
    },
  },
  {
    name: 'createPet: an absent status stays absent (the spec states no default)',
    async run({ api }) {
      const result = await api.authed('/pets', { method: 'POST', body: { name: 'Pebble', categoryId: 4 } })
      expect(result.status).toBe(201)
      expect(result.json).not.toHaveProperty('status')
      const fetched = await api.authed(`/pets/${(result.json as Pet).id}`)
      expect(fetched.json).not.toHaveProperty('status')
    },
  },
  {
    name: 'createPet: a categoryId past 2^53 is kept exact, never rounded',
    async run({ api }) {
      const body = '{"name":"Big","categoryId":9007199254740993}'
      const result = await api.authed('/pets', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      expect(result.status).toBe(201)
      expect(result.text).toContain('"categoryId":9007199254740993')
      const id = /"id":(\d+)/.exec(result.text)?.[1]
      expect((await api.authed(`/pets/${id}`)).text).toContain('"categoryId":9007199254740993')
    },
  },
  ...[
    ['9223372036854775808', 'past the int64 maximum'],
    ['1.5', 'a fraction'],
    ['1.00000000000000001', 'a fraction a double would round to 1'],
    ['"5"', 'a string'],
    ['1e309', 'a number past any double'],
    ['null', 'null'],
  ].map(
    ([categoryId, what]): ConformanceCase => ({
      name: `createPet: a categoryId that is ${what} is a 400 naming the field`,
      async run({ api }) {
        const body = `{"name":"Rex","categoryId":${categoryId}}`
        const result = await api.authed('/pets', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
        expectError(result, 400, 'invalid_body', 'categoryId')
      },
    }),
  ),
  ...(
    [
      ['the body is missing', undefined, 'missing_body', 'body'],
      ['the body is malformed JSON', '{"name":', 'malformed_json', 'JSON'],
      ['the body repeats a key', '{"name":"a","name":"b","categoryId":1}', 'malformed_json', 'name'],
      ['the body is an array', '[]', 'invalid_body', 'object'],
      ['the body is null', 'null', 'invalid_body', 'object'],
      ['the body is a string', '"Rex"', 'invalid_body', 'object'],
      ['name is missing', '{"categoryId":1}', 'invalid_body', "'name'"],
      ['categoryId is missing', '{"name":"Rex"}', 'invalid_body', "'categoryId'"],
      ['name is not a string', '{"name":42,"categoryId":1}', 'invalid_body', "'name'"],
      ['name is null', '{"name":null,"categoryId":1}', 'invalid_body', "'name'"],
      ['status is not a PetStatus', '{"name":"Rex","categoryId":1,"status":"lost"}', 'invalid_body', "'status'"],
      ['status is null', '{"name":"Rex","categoryId":1,"status":null}', 'invalid_body', "'status'"],
    ] as const
  ).map(
    ([what, body, code, mentions]): ConformanceCase => ({
      name: `createPet: 400 naming the problem when ${what}, and nothing is stored`,
      async run({ api, pets }) {
        const headers = { 'content-type': 'application/json' }
        const result = await api.authed('/pets', { method: 'POST', headers, ...(body === undefined ? {} : { body }) })
        expectError(result, 400, code, mentions)
        const all = (await api.authed('/pets', { query: 'limit=100' })).json as Pet[]
        expect(all).toHaveLength(Math.min(100, pets.length))
      },
    }),
  ),
  {
    name: 'createPet: both missing fields are named at once',
    async run({ api }) {
      const result = await api.authed('/pets', { method: 'POST', body: {} })
      expectError(result, 400, 'invalid_body', "'name'")
      expect((result.json as { message: string }).message).toContain("'categoryId'")
    },
  },
  {
    name: 'createPet: a body that is not sent as JSON is a 400 naming the content type',
    async run({ api }) {
      const body = JSON.stringify(NEW_PET)
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
        const result = await api.authed('/pets', { method: 'POST', body, headers: { 'content-type': type } })
        expectError(result, 400, 'unsupported_content_type', 'Content-Type')
      }
    },
  },
  {
    name: 'createPet: JSON with a charset and +json types are accepted',
    async run({ api }) {
      const body = JSON.stringify(NEW_PET)
      for (const type of ['application/json; charset=utf-8', 'application/vnd.animals+json', 'Application/JSON']) {
        expect((await api.authed('/pets', { method: 'POST', body, headers: { 'content-type': type } })).status, type).toBe(201)
      }
    },
  },
  {
    name: 'createPet: fields the spec does not name are ignored, a client-sent id included',
    async run(context) {
      const { api } = context
      const result = await api.authed('/pets', { method: 'POST', body: { ...NEW_PET, id: 999_999, colour: 'brown' } })
      expect(result.status).toBe(201)
      expect(result.json).toEqual({ id: firstNewIdOf(context), ...NEW_PET })
    },
  },
  {
    name: 'createPet: a body over 1 MiB is a 413 with the Error body',
    async run({ api }) {
      const body = JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 })
      expectError(await api.authed('/pets', { method: 'POST', body, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large')
    },
  },
]

const getCases: ConformanceCase[] = [
  {
    name: 'getPet: 200 with the animal and the deprecation headers',
    async run({ api, pets, basePath }) {
      const pet = pets[4] as Pet
      const result = await api.authed(`/pets/${pet.id}`)
      expect(result.status).toBe(200)
      expectJsonType(result)
      expect(result.json).toEqual(pet)
      expectDeprecationHeaders(result, basePath)
    },
  },
  {
    name: 'getPet: 404 with the Error body for an unknown id, deprecation headers included',
    async run({ api, pets, basePath }) {
      for (const id of [highestId(pets) + 1, 0, -3, '9223372036854775807']) {
        const result = await api.authed(`/pets/${id}`)
        expectError(result, 404, 'pet_not_found')
        expectDeprecationHeaders(result, basePath)
      }
    },
  },
  ...['abc', '1.5', '-', '9223372036854775808', '1e3', '%20'].map(
    (petId): ConformanceCase => ({
      name: `getPet: petId ${JSON.stringify(petId)} is a 400 naming the parameter, deprecation headers included`,
      async run({ api, basePath }) {
        const result = await api.authed(`/pets/${petId}`)
        expectError(result, 400, 'invalid_parameter', 'petId')
        expectDeprecationHeaders(result, basePath)
      },
    }),
  ),
  {
    name: 'getPet: a 401 signals the deprecation too',
    async run({ api, basePath }) {
      const result = await api.call('/pets/1')
      expectError(result, 401, 'unauthorized')
      expectDeprecationHeaders(result, basePath)
    },
  },
  {
    name: 'getPet: listPets and createPet carry no deprecation headers',
    async run({ api }) {
      for (const result of [await api.authed('/pets'), await api.authed('/pets', { method: 'POST', body: NEW_PET })]) {
        expect(result.headers.get('deprecation')).toBeNull()
        expect(result.headers.get('sunset')).toBeNull()
      }
    },
  },
]

const routingCases: ConformanceCase[] = [
  {
    name: 'an unknown path under the API is a 404 with the Error body',
    async run({ api }) {
      for (const path of ['/owners', '/pets/1/photos', '/pets/', '/store/orders', '/PETS']) {
        expectError(await api.authed(path), 404, 'route_not_found')
      }
    },
  },
  {
    name: 'a known path with another method is a 405 with Allow',
    async run({ api }) {
      for (const method of ['DELETE', 'PUT', 'PATCH']) {
        const onList = await api.authed('/pets', { method })
        expectError(onList, 405, 'method_not_allowed')
        expect(onList.headers.get('allow')).toContain('GET')
        expect(onList.headers.get('allow')).toContain('POST')
        const onOne = await api.authed('/pets/1', { method })
        expectError(onOne, 405, 'method_not_allowed')
        expect(onOne.headers.get('allow')).toContain('GET')
        expect(onOne.headers.get('allow')).not.toContain('POST')
      }
      expectError(await api.authed('/pets/1', { method: 'POST', body: NEW_PET }), 405, 'method_not_allowed')
    },
  },
  {
    name: 'HEAD answers like GET without a body',
    async run({ api }) {
      const result = await api.authed('/pets', { method: 'HEAD' })
      expect(result.status).toBe(200)
      expect(result.text).toBe('')
    },
  },
]

const corsCases: ConformanceCase[] = [
  {
    name: 'CORS: a preflight allows Authorization and JSON bodies, without a key',
    async run({ api }) {
      for (const path of ['/pets', '/pets/1']) {
        const result = await api.call(path, {
          method: 'OPTIONS',
          headers: {
            origin: 'http://localhost:5173',
            'access-control-request-method': path === '/pets' ? 'POST' : 'GET',
            'access-control-request-headers': 'authorization, content-type',
          },
        })
        expect(result.status).toBe(204)
        expect(result.headers.get('access-control-allow-origin')).toBe('*')
        expect(result.headers.get('access-control-allow-methods')).toContain(path === '/pets' ? 'POST' : 'GET')
        expect(result.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization')
        expect(result.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
      }
    },
  },
  {
    name: 'CORS: responses let a page on another origin read them and the headers that matter',
    async run({ api }) {
      const created = await api.authed('/pets', { method: 'POST', body: NEW_PET, headers: { origin: 'http://localhost:5173' } })
      const got = await api.authed('/pets/1', { headers: { origin: 'http://localhost:5173' } })
      const refused = await api.call('/pets', { headers: { origin: 'http://localhost:5173' } })
      for (const result of [created, got, refused]) {
        expect(result.headers.get('access-control-allow-origin')).toBe('*')
        const exposed = (result.headers.get('access-control-expose-headers') ?? '').toLowerCase()
        for (const name of ['location', 'deprecation', 'sunset', 'link']) expect(exposed).toContain(name)
      }
    },
  },
]

/** Every rule of the spec that a client can observe, in one table that each transport runs. */
export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  ...authCases,
  ...authFirstCases,
  ...listCases,
  ...createCases,
  ...getCases,
  ...routingCases,
  ...corsCases,
]
