import { expect, it } from 'vitest'
import { createPactRecording, recordingFor, recordingsToWrite } from '../../src/recording/pact-recording.js'
import type { ObservedExchange } from '../../src/fake/pipeline.js'
import { createTestFake, plainRequest } from '../support/core-fake.js'

const KEY = { authorization: 'Bearer real-key-9f' }
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

/** Sends `requests` to a fake whose exchanges a recording observes; returns the recording. */
function recorded(requests: Parameters<typeof plainRequest>[0][]) {
  const fake = createTestFake({ pets: Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: 1, status: 'sold' as const })) })
  const recording = createPactRecording('app')
  fake.observe(recording.record)
  for (const request of requests) fake.handle(plainRequest(request))
  return recording
}

it('keeps one interaction per shape whatever order the tests ran in', () => {
  const requests = [
    { search: 'status=sold&limit=5', headers: KEY },
    { search: 'status=pending&limit=50', headers: KEY },
    { search: 'limit=3', headers: KEY },
  ]
  const forward = recorded(requests).interactions()
  const backward = recorded([...requests].reverse()).interactions()
  expect(JSON.stringify(backward)).toBe(JSON.stringify(forward))
  expect(forward.map((interaction) => interaction.description)).toEqual(['a request to list animals with limit 3', 'a request to list pending animals with limit 50'])
})

it('leaves out what the spec does not define or promise, saying so', () => {
  const recording = recorded([
    { search: 'page=2', headers: KEY },
    { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: json({ name: 'Rex', categoryId: 1, colour: 'red' }) },
    { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: json({ name: 'x'.repeat(5000), categoryId: 1 }) },
    { search: 'limit=0', headers: KEY },
    { method: 'DELETE', path: '/pets/1', headers: KEY },
    { method: 'HEAD', headers: KEY },
    { path: '/pets/abc', headers: KEY },
  ])
  expect(recording.warnings()).toEqual([
    'DELETE /v1/pets/1: a request the spec does not define: not recorded',
    'GET /v1/pets/abc: 400 for GET /pets/{petId} is an answer the spec leaves open (an id that is not an integer): not recorded',
    'GET /v1/pets?limit=0: 400 is not an answer the spec lists for GET /pets: not recorded',
    'GET /v1/pets?page=2: the spec defines no query parameter "page": left out of the pact',
    'HEAD /v1/pets: a request the spec does not define: not recorded',
    'POST /v1/pets: a 400 for a reason the spec leaves open (invalid_body): not recorded',
    'POST /v1/pets: the spec defines no field "colour" of NewPet: left out of the pact',
  ])
  const created = recording.interactions().find((interaction) => interaction.description === 'a request to add an animal without a status')
  expect(JSON.stringify(created)).not.toContain('colour')
  expect(recording.interactions().map((interaction) => interaction.description)).toEqual([
    'a request to add an animal without a status',
    'a request to list animals with the default limit',
  ])
})

it('records no forced answer: neither Prefer nor a forced rule', () => {
  const fake = createTestFake()
  const recording = createPactRecording('app')
  fake.observe(recording.record)
  fake.force({ path: '/pets', status: 503, times: 1 })
  fake.handle(plainRequest({ headers: KEY }))
  fake.handle(plainRequest({ headers: { ...KEY, prefer: 'code=404' } }))
  expect(recording.interactions()).toEqual([])
  expect(recording.warnings()).toHaveLength(1)
})

it('stops recording when the observer is removed', () => {
  const fake = createTestFake()
  const recording = createPactRecording('app')
  const stop = fake.observe(recording.record)
  stop()
  fake.handle(plainRequest({ headers: KEY }))
  expect(recording.interactions()).toEqual([])
})

// Exchanges as the fake reports them, built directly: what was asked, and what was answered.
const exchange = (
  request: { method?: string; path?: string; search?: string; authorization?: string; body?: unknown },
  status: number,
  answer?: unknown,
): ObservedExchange => ({
  request: plainRequest({
    ...(request.method === undefined ? {} : { method: request.method }),
    ...(request.path === undefined ? {} : { path: request.path }),
    search: request.search ?? '',
    headers: request.authorization === undefined ? {} : { authorization: request.authorization },
    body: request.body === undefined ? undefined : new TextEncoder().encode(typeof request.body === 'string' ? request.body : JSON.stringify(request.body)),
  }),
  reply: { status, headers: {}, ...(answer === undefined ? {} : { body: typeof answer === 'string' ? answer : JSON.stringify(answer) }) },
  forced: false,
})
const withKey = KEY.authorization
const recordAll = (exchanges: readonly ObservedExchange[]) => {
  const recording = createPactRecording('app')
  for (const each of exchanges) recording.record(each)
  return recording
}
const only = (exchanges: readonly ObservedExchange[]) => {
  const all = recordAll(exchanges).interactions()
  expect(all).toHaveLength(1)
  return all[0] as Record<string, unknown>
}
const rule = (matcher: Record<string, unknown>) => ({ combine: 'AND', matchers: [matcher] })
const jsonBody = (content: unknown) => ({ content, contentType: 'application/json', encoded: false })
const KEY_REQUEST = {
  headers: { Authorization: ['Bearer pact-placeholder-api-key'] },
  matchingRules: { header: { Authorization: rule({ match: 'regex', regex: '^Bearer [A-Za-z0-9\\-._~+/]+=*$' }) } },
}
const ERROR_RULES = { body: { '$.code': rule({ match: 'type' }), '$.message': rule({ match: 'type' }), '$.status': rule({ match: 'equality' }) } }
const JSON_HEADERS = { 'Content-Type': ['application/json'] }

it('records an unfiltered list as exactly the limit of Pets matched by type, after a state with that many animals', () => {
  expect(only([exchange({ authorization: withKey }, 200)])).toEqual({
    description: 'a request to list animals with the default limit',
    pending: false,
    providerStates: [{ name: 'animals exist', params: { atLeast: 20 } }],
    request: { method: 'GET', path: '/pets', ...KEY_REQUEST },
    response: {
      status: 200,
      headers: JSON_HEADERS,
      body: jsonBody(Array.from({ length: 20 }, () => ({ id: 4242, name: 'Biscuit', categoryId: 3 }))),
      matchingRules: {
        body: {
          $: rule({ match: 'type', min: 20, max: 20 }),
          '$[*].id': rule({ match: 'integer' }),
          '$[*].name': rule({ match: 'type' }),
          '$[*].categoryId': rule({ match: 'integer' }),
        },
      },
    },
    type: 'Synchronous/HTTP',
  })
})

it('records a filtered list as one to limit Pets of that status, after a state with one such animal', () => {
  expect(only([exchange({ search: 'status=sold&limit=5', authorization: withKey }, 200)])).toEqual({
    description: 'a request to list sold animals with limit 5',
    pending: false,
    providerStates: [{ name: 'animals exist', params: { atLeast: 1, status: 'sold' } }],
    request: { method: 'GET', path: '/pets', query: { limit: ['5'], status: ['sold'] }, ...KEY_REQUEST },
    response: {
      status: 200,
      headers: JSON_HEADERS,
      body: jsonBody([{ id: 4242, name: 'Biscuit', categoryId: 3, status: 'sold' }]),
      matchingRules: {
        body: {
          $: rule({ match: 'type', min: 1, max: 5 }),
          '$[*].id': rule({ match: 'integer' }),
          '$[*].name': rule({ match: 'type' }),
          '$[*].categoryId': rule({ match: 'integer' }),
          '$[*].status': rule({ match: 'equality' }),
        },
      },
    },
    type: 'Synchronous/HTTP',
  })
  const unlimited = only([exchange({ search: 'status=pending', authorization: withKey }, 200)])
  expect(unlimited).toMatchObject({
    description: 'a request to list pending animals with the default limit',
    request: { query: { status: ['pending'] } },
    response: { matchingRules: { body: { $: rule({ match: 'type', min: 1, max: 20 }) } } },
  })
  expect(only([exchange({ search: 'limit=7', authorization: withKey }, 200)])).toMatchObject({
    description: 'a request to list animals with limit 7',
    providerStates: [{ name: 'animals exist', params: { atLeast: 7 } }],
    request: { query: { limit: ['7'] } },
    response: { matchingRules: { body: { $: rule({ match: 'type', min: 7, max: 7 }) } } },
  })
})

it('records a limit from 1 to 100 and leaves out one outside it, or one that is not a whole number', () => {
  const recording = recordAll(
    ['1', '100', '0', '101', '1000', 'abc', '1.5', '', '-1'].map((limit) => exchange({ search: `limit=${limit}`, authorization: withKey }, 200)),
  )
  // One shape (a limit given): the description that sorts first is kept.
  expect(recording.interactions().map((each) => each.description)).toEqual(['a request to list animals with limit 1'])
  expect(recordAll([exchange({ search: 'limit=100', authorization: withKey }, 200)]).interactions()[0]).toMatchObject({
    providerStates: [{ name: 'animals exist', params: { atLeast: 100 } }],
  })
  expect(recording.warnings()).toEqual(
    ['-1', '0', '1.5', '1000', '101', '', 'abc'].map((limit) => `GET /v1/pets?limit=${limit}: a limit outside 1..100 is answered as the spec leaves open: not recorded`),
  )
})

it('leaves out a status filter outside the enum, and answers the spec does not list for GET /pets', () => {
  const recording = recordAll([
    exchange({ search: 'status=SOLD', authorization: withKey }, 200),
    exchange({ search: 'status=toString', authorization: withKey }, 200),
    exchange({ authorization: withKey }, 500),
    exchange({ search: 'colour=red&colour=blue', authorization: withKey }, 500),
  ])
  expect(recording.interactions()).toEqual([])
  expect(recording.warnings()).toEqual([
    'GET /v1/pets: 500 is not an answer the spec lists for GET /pets: not recorded',
    'GET /v1/pets?colour=red&colour=blue: 500 is not an answer the spec lists for GET /pets: not recorded',
    'GET /v1/pets?colour=red&colour=blue: the spec defines no query parameter "colour": left out of the pact',
    'GET /v1/pets?status=SOLD: a status outside available, pending, sold is answered as the spec leaves open: not recorded',
    'GET /v1/pets?status=toString: a status outside available, pending, sold is answered as the spec leaves open: not recorded',
  ])
})

it('makes one interaction per set of query parameters, whatever their values or order, and leaves unknown ones out', () => {
  const recording = recordAll([
    exchange({ search: 'limit=5&status=sold', authorization: withKey }, 200),
    exchange({ search: 'status=available&limit=9', authorization: withKey }, 200),
    exchange({ search: 'status=pending', authorization: withKey }, 200),
    exchange({ search: 'status=sold', authorization: withKey }, 200),
    exchange({ search: 'limit=4&page=2', authorization: withKey }, 200),
    exchange({ search: 'limit=5', authorization: withKey }, 200),
    exchange({ search: 'page=3', authorization: withKey }, 200),
    exchange({ authorization: withKey }, 200),
  ])
  expect(recording.interactions().map((each) => each.description)).toEqual([
    'a request to list animals with limit 4',
    'a request to list animals with the default limit',
    'a request to list available animals with limit 9',
    'a request to list pending animals with the default limit',
  ])
  expect(JSON.stringify(recording.interactions())).not.toContain('page')
})

it('records a creation with the contract\'s example values, pinning the status only when one was sent', () => {
  expect(only([exchange({ method: 'POST', authorization: withKey, body: { name: 'Rex', categoryId: 1, status: 'pending' } }, 201)])).toEqual({
    description: 'a request to add an animal with status pending',
    pending: false,
    request: {
      method: 'POST',
      path: '/pets',
      headers: { ...KEY_REQUEST.headers, 'Content-Type': ['application/json'] },
      body: jsonBody({ name: 'Biscuit', categoryId: 3, status: 'pending' }),
      matchingRules: KEY_REQUEST.matchingRules,
    },
    response: {
      status: 201,
      headers: JSON_HEADERS,
      body: jsonBody({ id: 4242, name: 'Biscuit', categoryId: 3, status: 'pending' }),
      matchingRules: {
        body: {
          '$.id': rule({ match: 'integer' }),
          '$.name': rule({ match: 'type' }),
          '$.categoryId': rule({ match: 'integer' }),
          '$.status': rule({ match: 'equality' }),
        },
      },
    },
    type: 'Synchronous/HTTP',
  })
  const without = only([exchange({ method: 'POST', authorization: withKey, body: { name: 'Rex', categoryId: 1 } }, 201)])
  expect(without).toMatchObject({ description: 'a request to add an animal without a status', request: { body: jsonBody({ name: 'Biscuit', categoryId: 3 }) } })
  expect(without.response).toMatchObject({ body: jsonBody({ id: 4242, name: 'Biscuit', categoryId: 3 }) })
  expect(Object.keys((without.response as { matchingRules: { body: object } }).matchingRules.body)).toEqual(['$.id', '$.name', '$.categoryId'])
})

it('keeps one creation with a status and one without, the status that sorts first', () => {
  const recording = recordAll(
    (['sold', 'available', undefined, 'pending'] as const).map((status) =>
      exchange({ method: 'POST', authorization: withKey, body: { name: 'Rex', categoryId: 1, ...(status === undefined ? {} : { status }) } }, 201),
    ),
  )
  expect(recording.interactions().map((each) => each.description)).toEqual(['a request to add an animal with status available', 'a request to add an animal without a status'])
})

it('records the 400s the spec promises: a missing name or categoryId, a field of the wrong type', () => {
  const post = (body: unknown) => exchange({ method: 'POST', authorization: withKey, body }, 400, { code: 'invalid_body', message: 'm', status: 400 })
  const cases: [unknown, string, Record<string, unknown>][] = [
    [{ categoryId: 1 }, 'a request to add an animal without a name', { categoryId: 3 }],
    [{ name: 'Rex' }, 'a request to add an animal without a categoryId', { name: 'Biscuit' }],
    [{}, 'a request to add an animal without a name', { categoryId: 3 }],
    [{ name: 5, categoryId: 1 }, 'a request to add an animal with an invalid name', { name: 7, categoryId: 3 }],
    [{ name: 'Rex', categoryId: '1' }, 'a request to add an animal with an invalid categoryId', { name: 'Biscuit', categoryId: 'three' }],
    [{ name: 'Rex', categoryId: 1.5 }, 'a request to add an animal with an invalid categoryId', { name: 'Biscuit', categoryId: 'three' }],
    [{ name: 'Rex', categoryId: 1, status: 'gone' }, 'a request to add an animal with an invalid status', { name: 'Biscuit', categoryId: 3, status: 'unknown-status' }],
    [{ name: 'Rex', categoryId: 1, status: null }, 'a request to add an animal with an invalid status', { name: 'Biscuit', categoryId: 3, status: 'unknown-status' }],
  ]
  for (const [sent, description, body] of cases) {
    expect(only([post(sent)]), JSON.stringify(sent)).toEqual({
      description,
      pending: false,
      request: { method: 'POST', path: '/pets', headers: { ...KEY_REQUEST.headers, 'Content-Type': ['application/json'] }, body: jsonBody(body), matchingRules: KEY_REQUEST.matchingRules },
      response: { status: 400, headers: JSON_HEADERS, body: jsonBody({ code: 'invalid_body', message: 'An error.', status: 400 }), matchingRules: ERROR_RULES },
      type: 'Synchronous/HTTP',
    })
  }
})

it('leaves out a 400 for a body that is not a JSON object, or for a reason the spec leaves open', () => {
  const recording = recordAll([
    exchange({ method: 'POST', authorization: withKey, body: '[1]' }, 400),
    exchange({ method: 'POST', authorization: withKey, body: '{"name":' }, 400),
    exchange({ method: 'POST', authorization: withKey }, 400),
    exchange({ method: 'POST', authorization: withKey, body: { name: 'x'.repeat(5000), categoryId: 1 } }, 400, { code: 'name_too_long', message: 'm', status: 400 }),
    exchange({ method: 'POST', path: '/pets', authorization: withKey, body: { name: 'Rex', categoryId: 1, status: 'sold' } }, 400, '<html>'),
    exchange({ method: 'POST', authorization: withKey, body: { name: 'Rex', categoryId: 1 } }, 413),
  ])
  expect(recording.interactions()).toEqual([])
  expect(recording.warnings()).toEqual([
    'POST /v1/pets: 413 is not an answer the spec lists for POST /pets: not recorded',
    'POST /v1/pets: a 400 for a body that is not a JSON object: not recorded (the spec promises 400 for missing fields and invalid values)',
    'POST /v1/pets: a 400 for a reason the spec leaves open (name_too_long): not recorded',
    'POST /v1/pets: a 400 for a reason the spec leaves open (no Error body): not recorded',
  ])
})

it('names each field of a new animal the spec does not define, and leaves it out', () => {
  const recording = recordAll([exchange({ method: 'POST', authorization: withKey, body: { name: 'Rex', categoryId: 1, colour: 'red', id: 9 } }, 201)])
  expect(recording.warnings()).toEqual([
    'POST /v1/pets: the spec defines no field "colour" of NewPet: left out of the pact',
    'POST /v1/pets: the spec defines no field "id" of NewPet: left out of the pact',
  ])
  expect(JSON.stringify(recording.interactions())).not.toContain('colour')
})

it('records getting an animal with the id from the "an animal exists" state, and a 404 with the unknown id', () => {
  expect(only([exchange({ path: '/pets/31', authorization: withKey }, 200)])).toEqual({
    description: 'a request to get an animal',
    pending: false,
    providerStates: [{ name: 'an animal exists', params: { name: 'Biscuit', categoryId: 3, status: 'available' } }],
    request: {
      method: 'GET',
      path: '/pets/4242',
      headers: KEY_REQUEST.headers,
      matchingRules: { ...KEY_REQUEST.matchingRules, path: rule({ match: 'type' }) },
      generators: { path: { expression: '/pets/${petId}', type: 'ProviderState' } },
    },
    response: {
      status: 200,
      headers: JSON_HEADERS,
      body: jsonBody({ id: 4242, name: 'Biscuit', categoryId: 3, status: 'available' }),
      matchingRules: {
        body: {
          '$.id': rule({ match: 'integer' }),
          '$.name': rule({ match: 'type' }),
          '$.categoryId': rule({ match: 'integer' }),
          '$.status': rule({ match: 'equality' }),
        },
      },
    },
    type: 'Synchronous/HTTP',
  })
  expect(only([exchange({ path: '/pets/999', authorization: withKey }, 404)])).toEqual({
    description: 'a request to get an animal that does not exist',
    pending: false,
    providerStates: [{ name: 'no animal exists with the given id' }],
    request: {
      method: 'GET',
      path: '/pets/4242',
      headers: KEY_REQUEST.headers,
      matchingRules: { ...KEY_REQUEST.matchingRules, path: rule({ match: 'type' }) },
      generators: { path: { expression: '/pets/${petId}', type: 'ProviderState' } },
    },
    response: { status: 404, headers: JSON_HEADERS, body: jsonBody({ code: 'pet_not_found', message: 'An error.', status: 404 }), matchingRules: ERROR_RULES },
    type: 'Synchronous/HTTP',
  })
})

it('records a 401 as sent without a key or with a literal invalid one, never the recorded key', () => {
  const errorBody = jsonBody({ code: 'unauthorized', message: 'An error.', status: 401 })
  expect(only([exchange({ path: '/pets/3' }, 401)])).toEqual({
    description: 'a request to get an animal without a key',
    pending: false,
    providerStates: [{ name: 'an animal exists', params: { name: 'Biscuit', categoryId: 3, status: 'available' } }],
    request: { method: 'GET', path: '/pets/4242', matchingRules: { path: rule({ match: 'type' }) }, generators: { path: { expression: '/pets/${petId}', type: 'ProviderState' } } },
    response: { status: 401, headers: JSON_HEADERS, body: errorBody, matchingRules: ERROR_RULES },
    type: 'Synchronous/HTTP',
  })
  expect(only([exchange({ method: 'POST', authorization: 'Bearer wrong', body: { name: 'Rex' } }, 401)])).toEqual({
    description: 'a request to add an animal with an invalid key',
    pending: false,
    request: { method: 'POST', path: '/pets', headers: { Authorization: ['Bearer not-a-valid-key'], 'Content-Type': ['application/json'] }, body: jsonBody({ name: 'Biscuit', categoryId: 3 }) },
    response: { status: 401, headers: JSON_HEADERS, body: errorBody, matchingRules: ERROR_RULES },
    type: 'Synchronous/HTTP',
  })
  expect(only([exchange({ authorization: 'Basic abc' }, 401)])).toEqual({
    description: 'a request to list animals with an invalid key',
    pending: false,
    request: { method: 'GET', path: '/pets', headers: { Authorization: ['Bearer not-a-valid-key'] } },
    response: { status: 401, headers: JSON_HEADERS, body: errorBody, matchingRules: ERROR_RULES },
    type: 'Synchronous/HTTP',
  })
  const both = recordAll([exchange({ search: 'limit=3' }, 401), exchange({ authorization: 'Bearer wrong' }, 401), exchange({}, 401)])
  expect(both.interactions().map((each) => each.description)).toEqual(['a request to list animals with an invalid key', 'a request to list animals without a key'])
  expect(JSON.stringify(both.interactions())).not.toContain('wrong')
})

it('leaves out what getPet answers beyond 200, 401 and 404, and paths below an animal', () => {
  const recording = recordAll([exchange({ path: '/pets/abc', authorization: withKey }, 400), exchange({ path: '/pets/1/photos', authorization: withKey }, 404), exchange({ path: '/pets/', authorization: withKey }, 404)])
  expect(recording.interactions()).toEqual([])
  expect(recording.warnings()).toEqual([
    'GET /v1/pets/1/photos: a request the spec does not define: not recorded',
    'GET /v1/pets/: a request the spec does not define: not recorded',
    'GET /v1/pets/abc: 400 for GET /pets/{petId} is an answer the spec leaves open (an id that is not an integer): not recorded',
  ])
})

it('records no dropped connection, and lists each warning once', () => {
  const recording = createPactRecording('app')
  const request = plainRequest({ headers: { authorization: withKey } })
  recording.record({ request, reply: { kind: 'drop' }, forced: false })
  recording.record({ request, reply: { kind: 'drop' }, forced: false })
  recording.record({ request: plainRequest({ search: 'limit=2' }), reply: { status: 200, headers: {} }, forced: true })
  expect(recording.interactions()).toEqual([])
  expect(recording.warnings()).toEqual([
    'GET /v1/pets: a dropped connection: not recorded',
    'GET /v1/pets?limit=2: a forced answer (a Prefer header or a forced rule) is a test\'s choice, not the service\'s: not recorded',
  ])
})

it('takes a consumer name that can be a file name: letters, digits, ".", "_" and "-", at most 100', () => {
  for (const good of ['a', 'shop-frontend', 'Web_2.0', `a${'b'.repeat(99)}`]) expect(createPactRecording(good).consumer).toBe(good)
  for (const bad of ['', '-web', '.web', 'web app', '../up', 'web/app', `a${'b'.repeat(100)}`, 'web\n']) {
    expect(() => createPactRecording(bad), bad).toThrow(`the consumer must be a name of letters, digits, ".", "_" and "-", not ${JSON.stringify(bad)}`)
  }
})

it('adds every recordPact of a folder and consumer to one recording, its name trimmed', () => {
  const dir = `/tmp/recording-for-${Math.random().toString(16).slice(2)}`
  const first = recordingFor({ consumer: 'shop', dir })
  expect(recordingFor({ consumer: ' shop ', dir })).toBe(first)
  expect(first.consumer).toBe('shop')
  expect(recordingFor({ consumer: 'shop', dir: `${dir}-other` })).not.toBe(first)
  expect(recordingFor({ consumer: 'till', dir })).not.toBe(first)
  expect(recordingsToWrite().filter((each) => each.recording === first)).toEqual([{ recording: first, dir }])
})

it('counts a query parameter sent twice as one, making no second interaction of the same description', () => {
  const recording = recordAll([
    exchange({ search: 'limit=3', authorization: withKey }, 200),
    exchange({ search: 'limit=3&limit=4', authorization: withKey }, 200),
    exchange({ search: 'status=sold&status=pending', authorization: withKey }, 200),
    exchange({ search: 'status=sold', authorization: withKey }, 200),
  ])
  expect(recording.interactions().map((each) => each.description)).toEqual(['a request to list animals with limit 3', 'a request to list sold animals with the default limit'])
})

it('keeps the recordings of different folders and consumers apart, even when their names run together', () => {
  const base = `/tmp/recording-apart-${Math.random().toString(16).slice(2)}`
  expect(recordingFor({ consumer: 'ab', dir: `${base}/x` })).not.toBe(recordingFor({ consumer: 'b', dir: `${base}/xa` }))
})

it('keeps each 400 the spec promises as its own interaction', () => {
  const post = (body: unknown) => exchange({ method: 'POST', authorization: withKey, body }, 400, { code: 'invalid_body', message: 'm', status: 400 })
  const recording = recordAll([post({ categoryId: 1 }), post({}), post({ name: 'Rex' }), post({ name: 1, categoryId: 1 }), post({ name: 'Rex', categoryId: 'x' }), post({ name: 'Rex', categoryId: 1, status: 'x' })])
  expect(recording.interactions().map((each) => each.description)).toEqual([
    'a request to add an animal with an invalid categoryId',
    'a request to add an animal with an invalid name',
    'a request to add an animal with an invalid status',
    'a request to add an animal without a categoryId',
    'a request to add an animal without a name',
  ])
})

it('records a refused list, naming the query parameters the spec does not define', () => {
  const recording = recordAll([exchange({ search: 'page=2' }, 401)])
  expect(recording.interactions().map((each) => each.description)).toEqual(['a request to list animals without a key'])
  expect(recording.warnings()).toEqual(['GET /v1/pets?page=2: the spec defines no query parameter "page": left out of the pact'])
})

it('records getting an animal and not finding one as two interactions, and warns of neither', () => {
  const recording = recordAll([exchange({ path: '/pets/1', authorization: withKey }, 200), exchange({ path: '/pets/2', authorization: withKey }, 404), exchange({ path: '/pets/3' }, 401)])
  expect(recording.interactions().map((each) => each.description)).toEqual([
    'a request to get an animal',
    'a request to get an animal that does not exist',
    'a request to get an animal without a key',
  ])
  expect(recording.warnings()).toEqual([])
})

it('records only the three operations of the spec, on their own paths', () => {
  const recording = recordAll([
    exchange({ method: 'POST', path: '/pets/1', authorization: withKey, body: { name: 'Rex', categoryId: 1 } }, 405),
    exchange({ method: 'POST', path: '/animals', authorization: withKey, body: { name: 'Rex', categoryId: 1 } }, 404),
    exchange({ path: '/zoo/pets/1', authorization: withKey }, 404),
  ])
  expect(recording.interactions()).toEqual([])
  expect(recording.warnings()).toEqual([
    'GET /v1/zoo/pets/1: a request the spec does not define: not recorded',
    'POST /v1/animals: a request the spec does not define: not recorded',
    'POST /v1/pets/1: a request the spec does not define: not recorded',
  ])
})

it('leaves out a 400 for a JSON null body, and names an Error body without a textual code as none', () => {
  const recording = recordAll([
    exchange({ method: 'POST', authorization: withKey, body: 'null' }, 400),
    exchange({ method: 'POST', authorization: withKey, body: { name: 'Rex', categoryId: 1 } }, 400, { code: 400, message: 'm', status: 400 }),
  ])
  expect(recording.interactions()).toEqual([])
  expect(recording.warnings()).toEqual([
    'POST /v1/pets: a 400 for a body that is not a JSON object: not recorded (the spec promises 400 for missing fields and invalid values)',
    'POST /v1/pets: a 400 for a reason the spec leaves open (no Error body): not recorded',
  ])
})
