import { expect, it } from 'vitest'
import { constantTimeEqual } from '../../src/core/auth.js'
import { isJsonContentType } from '../../src/core/json-body.js'
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

it('recognises JSON content types with parameters and +json suffixes', () => {
  expect(isJsonContentType('application/json')).toBe(true)
  expect(isJsonContentType('application/json;charset="UTF-8"')).toBe(true)
  expect(isJsonContentType('application/problem+json')).toBe(true)
  expect(isJsonContentType('application/json; charset=utf-16')).toBe(false)
  expect(isJsonContentType('text/json')).toBe(false)
  expect(isJsonContentType('application/jsonx')).toBe(false)
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
