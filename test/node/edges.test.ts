import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/service/json-body.js'
import { API_BASE } from '../../src/site/site.js'
import type { Fake } from '../../src/create-fake.js'
import type { RunningServer } from '../../src/node/server.js'
import { TEST_KEY } from '../support/api-client.js'
import { serveFake } from '../support/served-fake.js'
import { rawRequest } from '../support/raw-http.js'

// Boundaries where bugs hide, met as a client meets them: HEAD as well as GET, exactly at a cap,
// the last of a repeated header.
let fake: Fake
let server: RunningServer
beforeAll(async () => ({ fake, server } = await serveFake()))
afterAll(() => server.close())
beforeEach(() => {
  fake.reset()
  fake.unforce()
  fake.clearJournal()
})

const url = (path: string) => `${server.url}${API_BASE}${path}`
const authed = { authorization: `Bearer ${TEST_KEY}` }
const DEPRECATION_HEADERS = ['deprecation', 'sunset', 'link'] as const

it('answers HEAD of the deprecated getPet with the same deprecation headers as GET, found, 400 and 404 alike, and no body', async () => {
  for (const path of ['/pets/1', '/pets/abc', '/pets/999999']) {
    const [get, head] = await Promise.all([fetch(url(path), { headers: authed }), fetch(url(path), { method: 'HEAD', headers: authed })])
    expect(head.status, path).toBe(get.status)
    for (const name of DEPRECATION_HEADERS) {
      expect(get.headers.get(name), `${path} ${name}`).not.toBeNull()
      expect(head.headers.get(name), `${path} ${name}`).toBe(get.headers.get(name))
    }
    expect(await head.text()).toBe('')
  }
})

it('lists exactly the methods of each path in Allow and in the preflight', async () => {
  for (const [path, allow] of [['/pets', 'GET, HEAD, POST, OPTIONS'], ['/pets/1', 'GET, HEAD, OPTIONS']] as const) {
    const wrong = await fetch(url(path), { method: 'PATCH', headers: authed })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow'), path).toBe(allow)
    const preflight = await fetch(url(path), { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' } })
    expect(preflight.headers.get('access-control-allow-methods'), path).toBe(allow)
  }
})

it('reads a body of exactly 1,048,576 bytes and refuses 1,048,577 with 413', async () => {
  const body = (size: number): string => {
    const start = '{"name":"At the cap","categoryId":1}'
    return start + ' '.repeat(size - start.length)
  }
  expect(MAX_BODY_BYTES).toBe(1_048_576)
  const post = (text: string) => fetch(url('/pets'), { method: 'POST', headers: { ...authed, 'content-type': 'application/json' }, body: text })
  const at = await post(body(MAX_BODY_BYTES))
  expect(at.status).toBe(201)
  const over = await post(body(MAX_BODY_BYTES + 1))
  expect(over.status).toBe(413)
  expect(await over.json()).toMatchObject({ code: 'payload_too_large', status: 413 })
})

it('refuses a repeated Authorization whichever copy holds the key, so the last cannot win', async () => {
  for (const [first, second] of [['Bearer wrong', `Bearer ${TEST_KEY}`], [`Bearer ${TEST_KEY}`, 'Bearer wrong'], [`Bearer ${TEST_KEY}`, `Bearer ${TEST_KEY}`]]) {
    const result = await rawRequest(server.url, `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${first}\r\nAuthorization: ${second}\r\nConnection: close\r\n\r\n`)
    expect(result.status, `${first} then ${second}`).toBe(401)
  }
})

it('hands HEAD to the fake as HEAD: a rule for HEAD fires on HEAD only, and the journal says HEAD', async () => {
  fake.force({ method: 'HEAD', path: '/pets', status: 503 })
  expect((await fetch(url('/pets'), { headers: authed })).status).toBe(200)
  expect((await fetch(url('/pets'), { method: 'HEAD', headers: authed })).status).toBe(503)
  expect(fake.journal().map((entry) => `${entry.method} ${entry.status}`)).toEqual(['GET 200', 'HEAD 503'])
})
