import { coreOf } from '../../src/fake/assemble-fake.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createFake } from '../../src/create-fake.js'
import { CONTROL_BASE, createControl } from '../../src/fake/control.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { createApiClient, createControlClient, TEST_KEY } from '../support/api-client.js'
import { expectError } from '../support/expectations.js'
import { rawRequest } from '../support/raw-http.js'

let server: RunningServer
beforeAll(async () => {
  const fake = createFake({ keys: [TEST_KEY] })
  server = await startServer({ app: createSite({ api: fake, control: createControl({ core: coreOf(fake) }) }) })
})
afterAll(() => server.close())

const api = () => createApiClient(`${server.url}${API_BASE}`)
const polluted = () => ({}) as Record<string, unknown>

it('treats __proto__, constructor and prototype in bodies as ignored fields', async () => {
  const body = '{"name":"Proto","categoryId":1,"__proto__":{"polluted":true,"name":"x"},"constructor":{"prototype":{"polluted":true}},"prototype":1}'
  const created = await api().authed('/pets', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
  expect(created.status).toBe(201)
  expect(created.json).toMatchObject({ name: 'Proto', categoryId: 1 })
  expect(Object.keys(created.json as object)).toEqual(['id', 'name', 'categoryId'])
  expect(polluted().polluted).toBeUndefined()
  const onlyProto = '{"__proto__":{"name":"Ghost","categoryId":1}}'
  expectError(await api().authed('/pets', { method: 'POST', body: onlyProto, headers: { 'content-type': 'application/json' } }), 400, 'invalid_body', "'name'")
})

it('treats them in query strings and headers as plain text', async () => {
  expect((await api().authed('/pets', { query: '__proto__=1&constructor=2&prototype=3&limit=2' })).json).toHaveLength(2)
  expectError(await api().authed('/pets', { query: 'status=__proto__' }), 400, 'invalid_parameter', 'status')
  expectError(await api().authed('/pets', { query: 'limit=constructor' }), 400, 'invalid_parameter', 'limit')
  expectError(await api().authed('/pets/__proto__'), 400, 'invalid_parameter', 'petId')
  const raw = await rawRequest(server.url, `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n__proto__: {"authorization":"x"}\r\nConstructor: y\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`)
  expect(raw.status).toBe(200)
  expect(polluted().authorization).toBeUndefined()
})

it('refuses them in control bodies and queries with 400', async () => {
  const control = createControlClient(`${server.url}${CONTROL_BASE}`, TEST_KEY)
  const forced = '{"__proto__":{"status":503},"status":503,"times":1}'
  expectError(await control.call('/forced', { method: 'POST', body: forced, headers: { 'content-type': 'application/json' } }), 400, 'invalid_body', '__proto__')
  expectError(await control.call('/latency', { method: 'PUT', body: '{"constructor":1}', headers: { 'content-type': 'application/json' } }), 400, 'invalid_body')
  expectError(await control.call('/journal', { query: '__proto__=1' }), 400, 'invalid_parameter')
  expect((await api().authed('/pets')).status).toBe(200)
  expect(polluted().status).toBeUndefined()
})
