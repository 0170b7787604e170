import { expect, it } from 'vitest'
import { constantTimeEqual } from '../../src/service/auth.js'
import { createTestFake as createFake, plainRequest as request, respond } from '../support/core-fake.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const post = (body: Uint8Array, token = 'k') =>
  request({ method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body })

it('accepts any non-empty token when no key is configured', () => {
  const fake = createFake()
  expect(respond(fake, request({ headers: { authorization: 'Bearer anything.at_all~' } })).status).toBe(200)
  expect(respond(fake, request({ headers: { authorization: 'Bearer ' } })).status).toBe(401)
  expect(respond(fake, request({ headers: { authorization: 'Bearer two words' } })).status).toBe(401)
})

it('refuses bodies that are not UTF-8, nested too deeply, or not JSON, with 400', () => {
  const fake = createFake()
  const invalidUtf8 = respond(fake, post(new Uint8Array([0x7b, 0xff, 0x7d])))
  expect(invalidUtf8.status).toBe(400)
  expect(invalidUtf8.body).toContain('UTF-8')
  const deep = respond(fake, post(bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)))
  expect(deep.status).toBe(400)
  expect(JSON.parse(deep.body ?? '')).toMatchObject({ code: 'malformed_json' })
  expect(fake.store.size).toBe(0)
})

it('accepts a UTF-8 byte order mark and keeps __proto__ as a plain ignored field', () => {
  const fake = createFake()
  const created = respond(fake, post(bytes('\ufeff{"name":"Rex","categoryId":1,"__proto__":{"polluted":true}}')))
  expect(created.status).toBe(201)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(JSON.parse(created.body ?? '')).toEqual({ id: 1, name: 'Rex', categoryId: 1 })
})

it('keeps the message of an error short whatever the body holds', () => {
  const response = respond(createFake(), post(bytes(`{"${'k'.repeat(10_000)}":1,"${'k'.repeat(10_000)}":2}`)))
  expect(response.status).toBe(400)
  expect((JSON.parse(response.body ?? '') as { message: string }).message.length).toBeLessThan(300)
})

it('compares keys by value in constant-time fashion', () => {
  expect(constantTimeEqual('secret', 'secret')).toBe(true)
  expect(constantTimeEqual('secret', 'secreT')).toBe(false)
  expect(constantTimeEqual('secret', 'secret2')).toBe(false)
  expect(constantTimeEqual('', '')).toBe(true)
})

it('lets reset() start over from new animals, ids following them', () => {
  const fake = createFake({ pets: [{ id: 1, name: 'A', categoryId: 1 }] })
  fake.reset([{ id: 50, name: 'B', categoryId: 1 }])
  const created = respond(fake, post(bytes('{"name":"C","categoryId":2}')))
  expect(JSON.parse(created.body ?? '')).toMatchObject({ id: 51 })
  fake.reset()
  expect(fake.store.all()).toEqual([{ id: 50, name: 'B', categoryId: 1 }])
})

it('answers list queries the same however many distinct ones came before', () => {
  const fake = createFake({ pets: Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `P${i}`, categoryId: 1 })) })
  const list = (search: string) => respond(fake, request({ headers: { authorization: 'Bearer k' }, search }))
  for (let i = 0; i < 300; i++) expect(JSON.parse(list(`limit=${(i % 100) + 1}&_=${i}`).body ?? '')).toHaveLength((i % 100) + 1 > 30 ? 30 : (i % 100) + 1)
  expect(JSON.parse(list('limit=3').body ?? '')).toHaveLength(3)
  expect(list('limit=0').status).toBe(400)
  expect(list('limit=0').status).toBe(400)
})

it('signals the deprecation on GET and HEAD of /pets/{petId} only: another method there is a 405 without it', () => {
  const fake = createFake()
  const auth = { authorization: 'Bearer k' }
  for (const method of ['GET', 'HEAD']) expect(respond(fake, request({ method, path: '/pets/1', headers: auth })).headers).toHaveProperty('deprecation')
  for (const method of ['PUT', 'DELETE', 'PATCH']) {
    const refused = respond(fake, request({ method, path: '/pets/1', headers: auth }))
    expect(refused.status).toBe(405)
    for (const name of ['deprecation', 'sunset', 'link']) expect(refused.headers, `${method} ${name}`).not.toHaveProperty(name)
  }
})

it('names the path it has no operation for, and the methods a path allows', () => {
  const fake = createFake()
  const auth = { authorization: 'Bearer k' }
  const unknown = respond(fake, request({ path: '/animals', headers: auth }))
  expect(JSON.parse(unknown.body ?? '')).toEqual({ code: 'route_not_found', message: 'No operation at /v1/animals.', status: 404 })
  const refused = respond(fake, request({ method: 'PUT', path: '/pets', headers: auth }))
  expect(JSON.parse(refused.body ?? '')).toEqual({ code: 'method_not_allowed', message: 'PUT is not allowed here; use GET, HEAD, POST, OPTIONS.', status: 405 })
})

it('accepts the Bearer scheme only, and says which part of the credential is wrong', () => {
  const message = (authorization: string | undefined, fake = createFake()) => {
    const answer = respond(fake, request({ headers: authorization === undefined ? {} : { authorization } }))
    expect(answer.status).toBe(401)
    return (JSON.parse(answer.body ?? '') as { message: string }).message
  }
  const missing = 'Missing credential: send Authorization: Bearer <API key>.'
  for (const blank of [undefined, '', '   ']) expect(message(blank), JSON.stringify(blank)).toBe(missing)
  // The key itself behind another scheme: refused for the scheme, whether any key or listed keys are accepted.
  expect(message('Basic k')).toBe('The Authorization scheme must be Bearer.')
  expect(message('Token secret-1', createFake({ keys: ['secret-1'] }))).toBe('The Authorization scheme must be Bearer.')
  for (const empty of ['Bearer', '  Bearer  ']) expect(message(empty)).toBe('The bearer token is empty.')
  expect(message('Bearer not-the-key', createFake({ keys: ['secret-1'] }))).toBe('The API key is not valid.')
  // RFC 6750: one or more spaces after the scheme.
  expect(respond(createFake({ keys: ['secret-1'] }), request({ headers: { authorization: 'bearer   secret-1 ' } })).status).toBe(200)
  // The challenge: plain Bearer when no usable credential came, invalid_token for a refused one.
  const challenge = (authorization: string) => respond(createFake({ keys: ['secret-1'] }), request({ headers: { authorization } })).headers['www-authenticate']
  expect(['', 'Basic secret-1', 'Bearer', 'Bearer wrong'].map(challenge)).toEqual(['Bearer', 'Bearer', 'Bearer error="invalid_token"', 'Bearer error="invalid_token"'])
})

it('reads a percent-encoded animal id, and refuses one that is not valid percent-encoding with 400', () => {
  const fake = createFake({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] })
  const get = (segment: string) => respond(fake, request({ path: `/pets/${segment}`, headers: { authorization: 'Bearer k' } }))
  expect(JSON.parse(get('%31').body ?? '')).toMatchObject({ id: 1, name: 'Rex' })
  const invalid = get('%zz')
  expect(invalid.status).toBe(400)
  expect(JSON.parse(invalid.body ?? '')).toMatchObject({ code: 'invalid_parameter', status: 400 })
})

it('answers a preflight without Access-Control-Request-Headers with the API\'s own headers, cached for 10 minutes', () => {
  const preflight = respond(createFake(), request({ method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } }))
  expect(preflight.status).toBe(204)
  expect(preflight.headers).toMatchObject({ 'access-control-allow-headers': 'Authorization, Content-Type', 'access-control-max-age': '600' })
  const forPet = respond(createFake(), request({ method: 'OPTIONS', path: '/pets/1', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } }))
  expect(forPet.headers['access-control-allow-methods']).toBe(forPet.headers.allow)
  expect(forPet.headers.allow).not.toContain('POST')
  expect(forPet.headers.allow).toContain('GET')
})

it('answers 507 with the store_full Error body when the store has no room, and stores nothing', () => {
  const fake = createFake({ maxAnimals: 1 })
  expect(respond(fake, post(bytes('{"name":"a","categoryId":1}'))).status).toBe(201)
  const full = respond(fake, post(bytes('{"name":"b","categoryId":1}')))
  expect(full.status).toBe(507)
  expect(JSON.parse(full.body ?? '')).toMatchObject({ code: 'store_full', status: 507 })
  expect(fake.store.size).toBe(1)
})
