import { coreOf } from '../../src/fake/assemble-fake.js'
import { expect, it } from 'vitest'
import { createControl } from '../../src/fake/control.js'
import type { PlainRequest, PlainResponse, Reply } from '../../src/service/http.js'
import { MAX_BODY_BYTES } from '../../src/service/json-body.js'
import { createSite, jsonPage } from '../../src/site/site.js'
import { createTestFake, plainRequest } from '../support/core-fake.js'

// Requests reach the site with their full path and an empty base, as the Node transport sends them.
const at = (path: string, fields: Partial<PlainRequest> = {}) => plainRequest({ basePath: '', path, headers: { host: '127.0.0.1:4010' }, ...fields })
const pages = new Map([['/health', jsonPage({ status: 'ok' })]])

function siteWithControl() {
  const fake = createTestFake()
  return createSite({ api: fake, control: createControl({ core: coreOf(fake) }), pages })
}

async function answer(reply: Reply | Promise<Reply>): Promise<PlainResponse> {
  const response = await reply
  if (!('status' in response)) throw new Error('dropped')
  return response
}

it('answers a control path like any unknown path when the site has no control API, in handle, admit and bodyLimit', async () => {
  const site = createSite({ api: createTestFake(), pages })
  const response = await answer(site.handle(at('/__control/journal')))
  expect(response.status).toBe(404)
  expect(JSON.parse(response.body as string)).toEqual({
    code: 'route_not_found',
    message: 'Nothing is served at /__control/journal; the API is under /v1.',
    status: 404,
  })
  expect(site.admit?.(at('/__control/reset', { method: 'POST' }))).toBeUndefined()
  expect(site.bodyLimit?.('POST', '/__control/fixture')).toBe(MAX_BODY_BYTES)
})

it('gives control paths the control API body limits, and everything else the API limit', () => {
  const site = siteWithControl()
  expect(site.bodyLimit?.('POST', '/__control/reset')).toBeLessThan(MAX_BODY_BYTES)
  expect(site.bodyLimit?.('POST', '/v1/pets')).toBe(MAX_BODY_BYTES)
})

it('refuses a method other than GET or HEAD on a page with 405 and Allow, and serves HEAD without a body', async () => {
  const site = siteWithControl()
  const post = await answer(site.handle(at('/health', { method: 'POST' })))
  expect(post.status).toBe(405)
  expect(post.headers.allow).toBe('GET, HEAD')
  expect(JSON.parse(post.body as string)).toMatchObject({ code: 'method_not_allowed', message: 'POST is not allowed here; use GET.' })
  const get = await answer(site.handle(at('/health')))
  expect(get.body).toBe('{"status":"ok"}')
  const head = await answer(site.handle(at('/health', { method: 'HEAD' })))
  expect(head.status).toBe(200)
  expect(head.body).toBeUndefined()
  expect(head.headers['content-type']).toBe(get.headers['content-type'])
})

it('refuses a foreign Host in admit, before any body is read, for the API and control paths alike', () => {
  const site = siteWithControl()
  for (const path of ['/v1/pets', '/__control/reset', '/health']) {
    expect(site.admit?.(at(path, { method: 'POST', headers: { host: 'evil.test' } }))?.status, path).toBe(403)
  }
  expect(site.admit?.(at('/v1/pets', { method: 'POST', headers: { host: 'localhost:4010', 'content-type': 'application/json' } }))).toBeUndefined()
})

it('answers a control preflight in admit with 204, and with no CORS grant for a page not opted in', () => {
  const site = siteWithControl()
  const preflight = site.admit?.(at('/__control/reset', { method: 'OPTIONS' }))
  expect(preflight?.status).toBe(204)
  expect(preflight?.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE, OPTIONS')
  expect(site.admit?.(at('/__control/reset', { method: 'OPTIONS', headers: { host: '127.0.0.1:4010', origin: 'http://evil.test' } }))?.status).toBe(403)
})

it('takes the API CORS headers out of control answers, errors included', async () => {
  const site = siteWithControl()
  const refused = await answer(site.handle(at('/__control/reset', { method: 'POST' })))
  expect(refused.status).toBe(403)
  const notFound = await answer(site.handle(at('/__control/nothing')))
  expect(notFound.status).toBe(404)
  const api = await answer(site.handle(at('/v1/nothing')))
  expect(api.headers['access-control-expose-headers']).toBeDefined()
  for (const response of [refused, notFound]) {
    expect(Object.keys(response.headers)).not.toContain('access-control-allow-origin')
    expect(Object.keys(response.headers)).not.toContain('access-control-expose-headers')
    expect(response.headers['content-type']).toContain('application/json')
  }
})

it('grants control CORS to an opted-in origin only: a foreign page\'s request and its refusal carry none', async () => {
  const fake = createTestFake()
  const site = createSite({ api: fake, control: createControl({ core: coreOf(fake) }), pages, controlCorsOrigins: ['http://localhost:5173'] })
  const from = (origin: string) => at('/__control/journal', { headers: { host: '127.0.0.1:4010', origin } })
  const opted = await answer(site.handle(from('http://localhost:5173')))
  expect(opted.status).toBe(200)
  expect(opted.headers).toMatchObject({ 'access-control-allow-origin': 'http://localhost:5173', vary: 'Origin' })
  const foreign = await answer(site.handle(from('http://evil.test')))
  expect(foreign.status).toBe(403)
  expect(Object.keys(foreign.headers)).not.toContain('access-control-allow-origin')
  const refusedEarly = site.admit?.(from('http://evil.test'))
  expect(refusedEarly?.status).toBe(403)
  expect(Object.keys(refusedEarly?.headers ?? {})).not.toContain('access-control-allow-origin')
})
