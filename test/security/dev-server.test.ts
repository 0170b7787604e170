import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient, createControlClient } from '../support/api-client.js'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { rawRequest } from '../support/raw-http.js'

// The fake as a developer runs it, next to a browser that visits hostile pages.
type Served = { readonly cli: CliProcess; readonly origin: string; readonly port: string }
const running: CliProcess[] = []
async function serve(args: readonly string[]): Promise<Served> {
  const cli = spawnCli(['serve', '--port', '0', '--quiet', ...args])
  running.push(cli)
  const origin = (await waitForBaseUrl(cli)).replace(/\/v1$/, '')
  return { cli, origin, port: new URL(origin).port }
}
afterAll(() => {
  for (const cli of running) cli.child.kill('SIGKILL')
})

let open: Served
beforeAll(async () => {
  open = await serve(['--control-cors', 'http://localhost:5173'])
})

const EVIL = 'https://evil.example'
const send = (path: string, init: RequestInit = {}) => fetch(`${open.origin}${path}`, init)
const count = async (): Promise<number> => ((await (await send('/v1/pets?limit=100', { headers: { authorization: 'Bearer k' } })).json()) as unknown[]).length

it('gives a page of another origin no read of the control API: 403, and no Access-Control-Allow-Origin', async () => {
  for (const path of ['/__control/journal', '/__control/snapshot', '/__control/animals', '/__control']) {
    const response = await send(path, { headers: { origin: EVIL } })
    expect(response.status, path).toBe(403)
    expect(response.headers.get('access-control-allow-origin'), path).toBeNull()
    expect(await response.json()).toMatchObject({ code: 'origin_not_allowed', status: 403 })
  }
  // Without an Origin (curl, scripts, tests) it answers, still without CORS.
  const tool = await send('/__control/journal')
  expect(tool.status).toBe(200)
  expect(tool.headers.get('access-control-allow-origin')).toBeNull()
})

it('refuses a foreign preflight for a state-changing control request', async () => {
  for (const method of ['PUT', 'POST', 'DELETE']) {
    const preflight = await send('/__control/snapshot', {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, x-control-token' },
    })
    expect(preflight.status, method).toBe(403)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull()
  }
})

it('lets no simple cross-origin request change state: a form post or a text/plain fetch cannot reset the store', async () => {
  expect((await send('/v1/pets', { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"name":"Keep me","categoryId":1}' })).status).toBe(201)
  const before = await count()
  const attempts: RequestInit[] = [
    { method: 'POST', headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' },
    { method: 'POST', headers: { origin: EVIL, 'content-type': 'text/plain' }, body: '{}' },
    { method: 'POST', headers: { origin: EVIL, 'content-type': 'application/json' } },
    { method: 'POST', headers: { 'content-type': 'text/plain' } },
    { method: 'POST' },
    { method: 'POST', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' } },
  ]
  for (const init of attempts) {
    const response = await send('/__control/reset', init)
    expect(response.status, JSON.stringify(init.headers)).toBe(403)
    expect(((await response.json()) as { code: string }).code).toMatch(/^(origin_not_allowed|json_required)$/)
  }
  expect(await count()).toBe(before)
  // The fake's own pages (same origin) and tools sending JSON may.
  const own = await send('/__control/reset', { method: 'POST', headers: { origin: open.origin, 'content-type': 'application/json' } })
  expect(own.status).toBe(200)
  expect(await count()).toBe(before - 1)
})

it('answers an origin opted in with --control-cors, by name, with Vary: Origin', async () => {
  const allowed = 'http://localhost:5173'
  const preflight = await send('/__control/forced', { method: 'OPTIONS', headers: { origin: allowed, 'access-control-request-method': 'POST' } })
  expect(preflight.status).toBe(204)
  expect(preflight.headers.get('access-control-allow-origin')).toBe(allowed)
  const read = await send('/__control/journal', { headers: { origin: allowed } })
  expect(read.status).toBe(200)
  expect(read.headers.get('access-control-allow-origin')).toBe(allowed)
  expect(read.headers.get('vary')).toBe('Origin')
  expect((await send('/__control/journal', { headers: { origin: 'http://localhost:5174' } })).status).toBe(403)
})

it('keeps CORS for any origin on /v1, which is what frontends call', async () => {
  const response = await send('/v1/pets?limit=1', { headers: { origin: EVIL, authorization: 'Bearer k' } })
  expect(response.status).toBe(200)
  expect(response.headers.get('access-control-allow-origin')).toBe('*')
})

it('answers 403 on every path to a Host that is not an address, localhost or an allowed name (DNS rebinding)', async () => {
  for (const path of ['/__control/journal', '/v1/pets', '/', '/dashboard', '/healthz']) {
    const result = await rawRequest(open.origin, `GET ${path} HTTP/1.1\r\nHost: attacker.example:${open.port}\r\nAuthorization: Bearer k\r\nConnection: close\r\n\r\n`)
    expect(result.status, path).toBe(403)
    expect(JSON.parse(result.body)).toMatchObject({ code: 'host_not_allowed', status: 403 })
    expect(result.body).not.toContain('attacker')
  }
  for (const host of [`127.0.0.1:${open.port}`, `localhost:${open.port}`, `app.localhost:${open.port}`, `[::1]:${open.port}`]) {
    const result = await rawRequest(open.origin, `GET /__control/journal HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
    expect(result.status, host).toBe(200)
  }
  const named = await serve(['--allowed-host', 'qa-box.internal', '--allowed-host', '.animals.test'])
  for (const [host, status] of [['qa-box.internal', 200], ['web.animals.test', 200], ['animals.test', 200], ['other.internal', 403], ['qa-box.internal.evil', 403]] as const) {
    const result = await rawRequest(named.origin, `GET /healthz HTTP/1.1\r\nHost: ${host}:${named.port}\r\nConnection: close\r\n\r\n`)
    expect(result.status, host).toBe(status)
  }
})

it('protects the control API with --api-key when no control token is set', async () => {
  const keyed = await serve(['--api-key', 'ctl-key-51a0'])
  const noKey = await fetch(`${keyed.origin}/__control/animals`)
  expect(noKey.status).toBe(401)
  expect(await noKey.json()).toMatchObject({ code: 'unauthorized', status: 401 })
  expect((await fetch(`${keyed.origin}/__control/animals`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
  expect((await fetch(`${keyed.origin}/__control/animals`, { headers: { authorization: 'Bearer ctl-key-51a0' } })).status).toBe(200)
  const tokened = await serve(['--api-key', 'ctl-key-51a0', '--control-token', 'ctl-token-77'])
  expect((await fetch(`${tokened.origin}/__control/animals`, { headers: { authorization: 'Bearer ctl-key-51a0' } })).status).toBe(401)
  expect((await fetch(`${tokened.origin}/__control/animals`, { headers: { 'x-control-token': 'ctl-token-77' } })).status).toBe(200)
})

it('lets no other site frame a page, so no hidden dashboard can be clicked through (clickjacking)', async () => {
  for (const path of ['/', '/dashboard', '/docs']) {
    const page = await send(path)
    expect(page.status, path).toBe(200)
    expect(page.headers.get('content-type'), path).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy'), path).toBe("frame-ancestors 'none'")
    expect(page.headers.get('x-frame-options'), path).toBe('DENY')
    expect(page.headers.get('x-content-type-options'), path).toBe('nosniff')
  }
  for (const path of ['/openapi.yaml', '/assets/site.css']) expect((await send(path)).headers.get('x-content-type-options'), path).toBe('nosniff')
})

it('tells the browser not to sniff the files it serves from disk: the API reference\'s script and stylesheet, the dashboard\'s modules', async () => {
  const files = [
    ['/assets/swagger-ui/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['/assets/swagger-ui/swagger-ui.css', 'text/css; charset=utf-8'],
    ['/assets/dashboard/main.js', 'text/javascript; charset=utf-8'],
  ] as const
  for (const [path, type] of files) {
    const file = await send(path)
    expect(file.status, path).toBe(200)
    expect(file.headers.get('content-type'), path).toBe(type)
    expect(file.headers.get('x-content-type-options'), path).toBe('nosniff')
  }
})

describe('credentials in what it shows', () => {
  const running: CliProcess[] = []
  afterEach(() => {
    for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
  })

  const API_KEY = 'LEAKCHECK-api-7c4e1a'
  const OTHER_KEY = 'LEAKCHECK-env-93b2d0'
  const CONTROL_TOKEN = 'LEAKCHECK-ctl-5f8e22'
  const WRONG_KEY = 'LEAKCHECK-wrong-0d1c9b'

  it('never shows an API key, the control token or a refused key in output, journal or error bodies', async () => {
    const cli = spawnCli(['serve', '--port', '0', '--api-key', API_KEY, '--control-token', CONTROL_TOKEN], {
      ANIMALS_MOCK_API_KEYS: OTHER_KEY,
    })
    running.push(cli)
    const baseUrl = await waitForBaseUrl(cli)
    const control = createControlClient(baseUrl.replace(/\/v1$/, '/__control'))
    const token = { 'x-control-token': CONTROL_TOKEN }
    const bodies: string[] = []
    for (const key of [API_KEY, OTHER_KEY, WRONG_KEY, `${WRONG_KEY} ${API_KEY}`]) {
      const api = createApiClient(baseUrl, key)
      bodies.push((await api.authed('/pets', { query: `api_key=${key}&token=${key}` })).text)
      bodies.push((await api.authed('/pets', { method: 'POST', body: { name: 'Rex', categoryId: 'x' } })).text)
      bodies.push((await api.authed('/pets/not-a-number')).text)
      bodies.push((await api.authed('/nowhere')).text)
      bodies.push((await api.call('/pets', { headers: { authorization: `Basic ${key}`, cookie: `session=${key}`, 'x-api-key': key } })).text)
    }
    await control.call('/forced', { method: 'POST', headers: token, body: { status: 503, times: 1 } })
    bodies.push((await createApiClient(baseUrl, API_KEY).authed('/pets')).text)
    bodies.push((await control.call('/journal', { headers: { 'x-control-token': WRONG_KEY } })).text)
    const journal = (await control.call('/journal', { headers: token })).text
    expect(journal).toContain('[redacted]')
    cli.child.kill('SIGTERM')
    await cli.exited
    for (const [where, text] of [['stdout', cli.stdout()], ['stderr', cli.stderr()], ['journal', journal], ['bodies', bodies.join('\n')]]) {
      for (const secret of [API_KEY, OTHER_KEY, CONTROL_TOKEN, WRONG_KEY]) expect(text, `${secret} in ${where}`).not.toContain(secret)
    }
  })
})
