import { afterEach, expect, it } from 'vitest'
import { createSite } from '../../src/site/site.js'
import { createPages } from '../../src/site/pages.js'
import { createProxyPages } from '../../src/proxy/proxy-pages.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createProxyApi, type ForwardAnswer, type ForwardRequest } from '../../src/proxy/proxy-api.js'
import { createProxyJournal } from '../../src/proxy/proxy-journal.js'
import { createApiClient } from '../support/api-client.js'

// The proxy's pages as `animals-mock proxy` serves them (src/cli/proxy.ts), in front of a target
// that drifts from the spec on two requests of three, one of them answering with markup.
const TARGET = 'https://staging.animals.example/qa&eu/v1'
const KEY = 'proxy-pages-key-51d2'

function answer(status: number, body: unknown): ForwardAnswer {
  const text = JSON.stringify(body)
  return { kind: 'answer', status, headers: { 'content-type': 'application/json' }, setCookie: [], body: new TextEncoder().encode(text), text, release() {} }
}

async function drifted(request: ForwardRequest): Promise<ForwardAnswer> {
  if (request.path === '/pets/2') return answer(404, { code: 'not_found', message: 'No animal 2', status: `<b>Rex's</b> & co` })
  if (request.search === 'status=sold&limit=100') return answer(200, [{ id: 1, name: 'Milo', categoryId: 1, status: 'available' }])
  return answer(200, [])
}

const servers: RunningServer[] = []
afterEach(() => Promise.all(servers.splice(0).map((server) => server.close())))

/**
 * Starts the proxy's site and sends it `paths` with a key; resolves with its origin. In each test,
 * so the pages are built while it runs (a mutation run credits what a beforeAll builds unreliably).
 */
async function startProxy(paths: readonly string[]): Promise<string> {
  const now = (): number => Date.UTC(2026, 10, 24, 9, 30)
  const journal = createProxyJournal(1000, now)
  const api = createProxyApi({ target: TARGET, send: drifted, onExchange: (exchange) => journal.add(exchange), now, timeoutMs: 10_000 })
  const pages = createPages({ control: 'off' })
  for (const [path, page] of createProxyPages(journal, TARGET)) pages.set(path, page)
  const server = await startServer({ app: createSite({ api, pages }) })
  servers.push(server)
  const client = createApiClient(`${server.url}/v1`, KEY)
  for (const path of paths) await client.authed(path)
  return new URL(server.url).origin
}

/** Three requests, the last two answered against the spec. */
const TRAFFIC = ['/pets', '/pets?status=sold&limit=100', '/pets/2']

it('shows the counts and each violation, newest first, on / and /dashboard, refreshed every two seconds', async () => {
  const origin = await startProxy(TRAFFIC)
  const page = await fetch(`${origin}/dashboard`)
  expect(page.status).toBe(200)
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(page.headers.get('cache-control')).toBe('no-store')
  const html = await page.text()
  expect(html).toContain('<meta http-equiv="refresh" content="2">')
  expect(html).toContain('an Error body with &quot;status&quot; &quot;&lt;b&gt;Rex&#39;s&lt;/b&gt; &amp; co&quot; instead of 404')
  expect(html).not.toContain('<b>')
  expect(html).toContain('<h2>To https://staging.animals.example/qa&amp;eu/v1</h2>')
  expect(html).toContain('data-testid="proxy-counts">3 exchanges, <strong data-testid="violation-count">2</strong> violations')
  const rows = [...html.matchAll(/<tr data-testid="violation"><td>([0-9]+)<\/td><td>([A-Z]+)<\/td><td class="mono">([^<]*)<\/td><td>([^<]*)<\/td>/g)]
  expect(rows.map((row) => row.slice(1))).toEqual([
    ['3', 'GET', '/v1/pets/2', '404'],
    ['2', 'GET', '/v1/pets?status=sold&amp;limit=100', '200'],
  ])
  expect(await (await fetch(`${origin}/`)).text()).toBe(html)
})

it('shows an empty table and no violation before any exchange', async () => {
  const origin = await startProxy([])
  const html = await (await fetch(`${origin}/`)).text()
  expect(html).toContain('data-testid="proxy-counts">0 exchanges, <strong data-testid="violation-count">0</strong> violations')
  expect(html).toContain('<tbody></tbody>')
})

it('lists every exchange at /__proxy/journal and the ones that broke the spec at /__proxy/violations, as JSON', async () => {
  const origin = await startProxy(TRAFFIC)
  const journal = await fetch(`${origin}/__proxy/journal`)
  expect(journal.status).toBe(200)
  expect(journal.headers.get('content-type')).toBe('application/json')
  const entry = (seq: number, path: string, query: string, status: number, violations: unknown[]): unknown => ({
    seq,
    time: '2026-11-24T09:30:00.000Z',
    method: 'GET',
    path,
    query,
    status,
    durationMs: 0,
    violations,
  })
  const sold = entry(2, '/v1/pets', 'status=sold&limit=100', 200, [{ aspect: 'body', reason: expect.stringContaining('sold') }])
  const missing = entry(3, '/v1/pets/2', '', 404, [{ aspect: 'body', reason: expect.stringContaining(`"status" "<b>Rex's</b> & co" instead of 404`) }])
  expect(await journal.json()).toEqual({ exchanges: 3, violations: 2, entries: [entry(1, '/v1/pets', '', 200, []), sold, missing] })
  const violations = await fetch(`${origin}/__proxy/violations`)
  expect(violations.headers.get('content-type')).toBe('application/json')
  expect(await violations.json()).toEqual({ violations: 2, entries: [sold, missing] })
})
