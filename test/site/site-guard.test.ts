import { expect, it } from 'vitest'
import type { PlainRequest } from '../../src/service/http.js'
import { controlPreflight, createHostPolicy, refuseControlRequest, refuseHost } from '../../src/site/site-guard.js'
import { plainRequest } from '../support/core-fake.js'

const control = (fields: Partial<PlainRequest>) => plainRequest({ basePath: '/__control', path: '/reset', ...fields })
const noCors = new Set<string>()

it('answers addresses, localhost and its subdomains on any port, and no name that merely contains one', () => {
  const allowed = createHostPolicy()
  for (const host of ['127.0.0.1', '127.0.0.1:4010', '10.20.30.40', '192.168.1.254:80', '[::1]', '[::1]:4010', '[fe80::1]', 'localhost', 'LocalHost:3000', 'app.localhost:5173']) {
    expect(allowed(host), host).toBe(true)
  }
  // A rebinding page owns names like these (1.2.3.4.nip.io style), never a bare address.
  for (const host of ['1.2.3.4.evil.test', '1.2.3.4.evil.test:4010', 'evil.1.2.3.4', 'x1.2.3.4', '1.2.3.4x', '1.2.3.4444', 'evil.test', 'localhost.evil.test', 'evillocalhost', 'x.evil.test', 'evil.test[::1]', 'evil.test[1.2.3.4]', '']) {
    expect(allowed(host), host).toBe(false)
  }
})

it('answers a listed name exactly, and every name below one listed with a leading dot', () => {
  const allowed = createHostPolicy(['QA-Box.internal', '.dev.test'])
  expect(allowed('qa-box.internal:4010')).toBe(true)
  expect(allowed('xqa-box.internal')).toBe(false)
  expect(allowed('a.qa-box.internal')).toBe(false)
  expect(allowed('dev.test')).toBe(true)
  expect(allowed('api.dev.test')).toBe(true)
  expect(allowed('a.b.DEV.test:1')).toBe(true)
  expect(allowed('evildev.test')).toBe(false)
})

it('gives the same answers after more hosts than it remembers', () => {
  const allowed = createHostPolicy(['qa-box.internal'])
  for (let i = 0; i < 200; i++) {
    expect(allowed(`name-${i}.test`)).toBe(false)
    expect(allowed(`127.0.0.${i}`)).toBe(true)
    expect(allowed('qa-box.internal')).toBe(true)
  }
})

it('answers a request without Host (HTTP/1.0): there is no name to rebind', () => {
  expect(createHostPolicy()(undefined)).toBe(true)
})

it('refuses a Host with a 403 that names what is allowed and does not echo the host', () => {
  const refusal = refuseHost()
  expect(refusal.status).toBe(403)
  expect(JSON.parse(refusal.body as string)).toEqual({
    code: 'host_not_allowed',
    message: 'This Host is not allowed: use 127.0.0.1, localhost or a name given with --allowed-host.',
    status: 403,
  })
})

it('refuses a control request a browser marks cross-site or same-site, and answers one marked same-origin or none', () => {
  const originRefusal = {
    code: 'origin_not_allowed',
    message: "The control API answers the fake's own pages and tools without an Origin; allow a web origin with --control-cors.",
    status: 403,
  }
  for (const site of ['cross-site', 'same-site']) {
    const refusal = refuseControlRequest(control({ method: 'GET', headers: { 'sec-fetch-site': site } }), noCors)
    expect(refusal?.status, site).toBe(403)
    expect(JSON.parse(refusal?.body as string)).toEqual(originRefusal)
  }
  for (const site of ['same-origin', 'none']) {
    expect(refuseControlRequest(control({ method: 'GET', headers: { 'sec-fetch-site': site } }), noCors), site).toBeUndefined()
  }
})

it('takes no Origin as the fake\'s own when the request has no Host', () => {
  const request = control({ method: 'GET', headers: { origin: 'http://undefined' } })
  expect(refuseControlRequest(request, noCors)?.status).toBe(403)
  expect(refuseControlRequest(control({ method: 'GET', headers: { origin: 'http://127.0.0.1:4010', host: '127.0.0.1:4010' } }), noCors)).toBeUndefined()
})

it('refuses every state-changing control method without a JSON content type, naming the method', () => {
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }]) {
      const refusal = refuseControlRequest(control({ method, headers }), noCors)
      expect(refusal?.status, `${method} ${JSON.stringify(headers)}`).toBe(403)
      expect(JSON.parse(refusal?.body as string)).toEqual({
        code: 'json_required',
        message: `${method} on the control API needs Content-Type: application/json, even without a body.`,
        status: 403,
      })
    }
    expect(refuseControlRequest(control({ method, headers: { 'content-type': 'application/json' } }), noCors)).toBeUndefined()
  }
  for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(refuseControlRequest(control({ method }), noCors), method).toBeUndefined()
})

it('answers a control preflight without Origin with the methods, headers and max age, and no CORS grant', () => {
  const preflight = controlPreflight(control({ method: 'OPTIONS' }), noCors)
  expect(preflight).toEqual({
    status: 204,
    headers: {
      'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type, X-Control-Token',
      'access-control-max-age': '600',
    },
  })
  const opted = controlPreflight(control({ method: 'OPTIONS', headers: { origin: 'http://app.test' } }), new Set(['http://app.test']))
  expect(opted.headers).toMatchObject({ 'access-control-allow-origin': 'http://app.test', vary: 'Origin', 'access-control-max-age': '600' })
  expect(controlPreflight(control({ method: 'OPTIONS', headers: { origin: 'http://evil.test' } }), noCors).status).toBe(403)
})
