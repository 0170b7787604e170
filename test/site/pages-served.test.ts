import { coreOf } from '../../src/fake/assemble-fake.js'
import { readFileSync } from 'node:fs'
import { type IncomingHttpHeaders, request } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { OpenAPIV3 } from 'openapi-types'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { readOpenApiText } from '../../src/contracts/openapi.js'
import { createFake } from '../../src/create-fake.js'
import { createControl } from '../../src/fake/control.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { DASHBOARD_MODULES } from '../../src/site/dashboard-pages.js'
import { withFakeServer } from '../../src/site/docs-pages.js'
import { createPages } from '../../src/site/pages.js'
import { createHostPolicy } from '../../src/site/site-guard.js'
import { SITE_CSS } from '../../src/site/site-style.js'
import { createSite, type Page } from '../../src/site/site.js'

// What a browser and a script see of the pages beside the API, in-process: status, headers and
// content. pages-golden.test.ts compares each whole page, as the CLI serves it, with a golden file.
const HOST = 'animals.test:8080'
const KEYS = ['served-key-one-4b8e', 'served-key-two-d170']
const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
const DIST_DASHBOARD = new URL('../../dist/dashboard/', import.meta.url)

const servers: RunningServer[] = []

async function serve(pages: ReadonlyMap<string, Page>, keys: readonly string[], control?: { token?: string }): Promise<RunningServer> {
  const fake = createFake({ keys })
  const controlApi = control === undefined ? {} : { control: createControl({ core: coreOf(fake), ...control }) }
  const server = await startServer({ app: createSite({ api: fake, pages, hosts: createHostPolicy(['animals.test']), ...controlApi }) })
  servers.push(server)
  return server
}

type Served = { readonly status: number; readonly headers: IncomingHttpHeaders; readonly body: string }

/** GETs a path as a browser at `host` would. */
function get(server: RunningServer, path: string, host = HOST): Promise<Served> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, path, setHost: false, headers: { host } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    sent.on('error', reject).end()
  })
}

const OPEN_TO_ANY_ORIGIN = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Deprecation, Sunset, Link, Allow, WWW-Authenticate',
}

/** What every HTML page of the fake answers with: fresh on every visit. */
function expectHtmlPage(page: Served): void {
  expect(page.status).toBe(200)
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
  expect(page.headers['cache-control']).toBe('no-store')
}

const textOf = (html: string, testId: string): string | undefined =>
  new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1]

// Each test starts the servers it uses, so the pages are built while it runs: in a mutation run,
// what a file's beforeAll builds is credited to its tests only when no earlier file built it too.
const LISTED = { kind: 'listed', keys: KEYS } as const
const serveOpen = (): Promise<RunningServer> => serve(createPages({ control: 'open' }), [], {})
const serveToken = (): Promise<RunningServer> => serve(createPages({ keys: LISTED, control: 'token' }), KEYS, { token: 'served-control-token' })
const serveOff = (): Promise<RunningServer> => serve(createPages({ keys: LISTED, control: 'off' }), KEYS)
afterEach(() => Promise.all(servers.splice(0).map((server) => server.close())))

it('welcomes with any non-empty token, a curl example using dev-key, and links to the dashboard and the control document', async () => {
  const open = await serveOpen()
  const page = await get(open, '/')
  expectHtmlPage(page)
  expect(textOf(page.body, 'key-policy')).toBe('any non-empty bearer token')
  expect(textOf(page.body, 'curl-example')).toBe(`curl -H 'Authorization: Bearer dev-key' 'http://${HOST}/v1/pets?limit=5'`)
  expect(page.body).toContain('href="/dashboard" data-testid="link-dashboard"')
  expect(page.body).toContain('href="/__control/openapi.yaml"')
  expect(page.body).not.toContain('X-Control-Token')
})

it('tells under a control token that the control API needs X-Control-Token, and how many keys are accepted, never which', async () => {
  const token = await serveToken()
  const page = await get(token, '/')
  expectHtmlPage(page)
  expect(textOf(page.body, 'key-policy')).toBe('2 configured key(s)')
  expect(textOf(page.body, 'curl-example')).toBe(`curl -H 'Authorization: Bearer &lt;API key&gt;' 'http://${HOST}/v1/pets?limit=5'`)
  expect(page.body).toContain('(requires <code>X-Control-Token</code>)')
  for (const key of KEYS) expect(page.body).not.toContain(key)
})

it('says on the landing page that the dashboard is off under --no-control, and links no control document', async () => {
  const off = await serveOff()
  const page = await get(off, '/')
  expectHtmlPage(page)
  expect(page.body).toContain('data-testid="dashboard-off"')
  expect(page.body).not.toContain('data-testid="link-dashboard"')
  expect(page.body).not.toContain('/__control')
})

it('accepts any non-empty token and leaves the dashboard off when created with no options', async () => {
  const defaults = await serve(createPages(), [])
  const landing = await get(defaults, '/')
  expectHtmlPage(landing)
  expect(textOf(landing.body, 'key-policy')).toBe('any non-empty bearer token')
  expect(landing.body).toContain('data-testid="dashboard-off"')
  expect(landing.body).not.toContain('/__control')
  expect((await get(defaults, '/dashboard')).body).toContain('data-testid="controls-disabled"')
  expect((await get(defaults, '/assets/dashboard/main.js')).status).toBe(404)
})

it('serves the contract as YAML and as JSON of the same document, both readable from any origin', async () => {
  const open = await serveOpen()
  const yaml = await get(open, '/openapi.yaml')
  expect(yaml.status).toBe(200)
  expect(yaml.headers['content-type']).toBe('application/yaml; charset=utf-8')
  expect(yaml.headers).toMatchObject(OPEN_TO_ANY_ORIGIN)
  expect(yaml.body).toBe(readOpenApiText())
  const json = await get(open, '/openapi.json')
  expect(json.status).toBe(200)
  expect(json.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(json.headers).toMatchObject(OPEN_TO_ANY_ORIGIN)
  expect(JSON.parse(json.body)).toEqual(parse(readOpenApiText()))
})

it('answers the health check with {"status":"ok"} as JSON', async () => {
  const off = await serveOff()
  const health = await get(off, '/healthz')
  expect(health.status).toBe(200)
  expect(health.headers['content-type']).toBe('application/json')
  expect(health.headers).toMatchObject(OPEN_TO_ANY_ORIGIN)
  expect(health.body).toBe('{"status":"ok"}')
})

it('serves the stylesheet the landing page and the dashboard link', async () => {
  const open = await serveOpen()
  for (const path of ['/', '/dashboard']) expect((await get(open, path)).body).toContain('<link rel="stylesheet" href="/assets/site.css">')
  const style = await get(open, '/assets/site.css')
  expect(style.status).toBe(200)
  expect(style.headers['content-type']).toBe('text/css; charset=utf-8')
  expect(style.body).toBe(SITE_CSS)
})

it('serves the API reference, which loads Swagger UI from the fake itself, never cached', async () => {
  const open = await serveOpen()
  const page = await get(open, '/docs')
  expectHtmlPage(page)
  const script = await get(open, '/assets/swagger-ui/swagger-ui-bundle.js')
  expect(script.status).toBe(200)
  expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
  expect(script.body).toBe(readFileSync(join(SWAGGER_DIR, 'swagger-ui-bundle.js'), 'utf8'))
  const style = await get(open, '/assets/swagger-ui/swagger-ui.css')
  expect(style.status).toBe(200)
  expect(style.headers['content-type']).toBe('text/css; charset=utf-8')
  expect(style.body).toBe(readFileSync(join(SWAGGER_DIR, 'swagger-ui.css'), 'utf8'))
})

it('serves the reference\'s copy of the contract as JSON readable from any origin, this fake first among its servers', async () => {
  const open = await serveOpen()
  const document = await get(open, '/docs/openapi.json')
  expect(document.status).toBe(200)
  expect(document.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(document.headers).toMatchObject(OPEN_TO_ANY_ORIGIN)
  const { servers: listed } = JSON.parse(document.body) as { servers: unknown[] }
  // The contract's own server is the same relative /v1: the fake takes its place.
  expect(listed).toEqual([{ url: '/v1', description: 'This fake (animals-mock)' }])
})

it('serves the dashboard, never cached, and each of its modules as the JavaScript the build wrote', async () => {
  const open = await serveOpen()
  const token = await serveToken()
  const page = await get(open, '/dashboard')
  expectHtmlPage(page)
  // Under a control token the page is the same: its script asks for the token.
  expect((await get(token, '/dashboard')).body).toBe(page.body)
  for (const name of DASHBOARD_MODULES) {
    const module = await get(token, `/assets/dashboard/${name}.js`)
    expect(module.status, name).toBe(200)
    expect(module.headers['content-type'], name).toBe('text/javascript; charset=utf-8')
    expect(module.body, name).toBe(readFileSync(new URL(`${name}.js`, DIST_DASHBOARD), 'utf8'))
  }
})

it('serves a page saying the controls are disabled, and none of the dashboard\'s modules, under --no-control', async () => {
  const off = await serveOff()
  const page = await get(off, '/dashboard')
  expectHtmlPage(page)
  expect(page.body).not.toContain('<script')
  for (const name of DASHBOARD_MODULES) expect((await get(off, `/assets/dashboard/${name}.js`)).status, name).toBe(404)
})

it('takes examples out of query parameters only in the reference\'s copy of a document, and puts this fake first in place of the contract\'s own /v1, even where it has no servers', () => {
  const fake = { url: '/v1', description: 'This fake (animals-mock)' }
  const bare = { openapi: '3.0.3', info: { title: 'bare', version: '1' }, paths: {} }
  expect(withFakeServer(bare)).toEqual({ ...bare, servers: [fake], components: { parameters: {} } })

  const id = { name: 'id', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id' }, example: 7 } as const
  const document: OpenAPIV3.Document = {
    ...bare,
    servers: [{ url: '/v1', description: 'the contract\'s own, the same address here' }, { url: 'https://animals.example/v1' }],
    components: {
      schemas: { Id: { type: 'integer', example: 7 }, Alias: { $ref: '#/components/schemas/Id' } },
      parameters: {
        id,
        shared: { $ref: '#/components/parameters/id' },
        after: { name: 'after', in: 'query', schema: { $ref: '#/components/schemas/Id' }, example: 3 },
        alias: { name: 'alias', in: 'query', schema: { $ref: '#/components/schemas/Alias' } },
        unknown: { name: 'unknown', in: 'query', schema: { $ref: '#/components/schemas/Unknown' }, example: 1 },
        free: { name: 'free', in: 'query', example: 'x' },
      },
    },
  }
  expect(withFakeServer(document)).toEqual({
    ...document,
    servers: [fake, { url: 'https://animals.example/v1' }],
    components: {
      ...document.components,
      parameters: {
        id,
        shared: { $ref: '#/components/parameters/id' },
        after: { name: 'after', in: 'query', schema: { type: 'integer' } },
        alias: { name: 'alias', in: 'query', schema: { $ref: '#/components/schemas/Alias' } },
        unknown: { name: 'unknown', in: 'query', schema: { $ref: '#/components/schemas/Unknown' } },
        free: { name: 'free', in: 'query' },
      },
    },
  })
})

describe('the stylesheet', () => {
  const servers: RunningServer[] = []
  afterAll(() => Promise.all(servers.map((server) => server.close())))

  const classesOf = (html: string): Set<string> => new Set([...html.matchAll(/ class="([^"]*)"/g)].flatMap((match) => (match[1] ?? '').split(' ')))

  // pages-served.test.ts compares the stylesheet with the text it is served from; this reads it
  // as a browser does, for the rules that lay out the pages that link it.
  it('serves a stylesheet with rules for the header, main area and panels of the landing page and the dashboard', async () => {
    const server = await startServer({ app: createSite({ api: createFake(), pages: createPages({ control: 'open' }) }) })
    servers.push(server)
    const css = await (await fetch(`${server.url}/assets/site.css`)).text()
    expect(css).toMatch(/:root \{ color-scheme: light;/)
    const pages = [
      ['/', 'narrow', 'main.narrow {'],
      ['/dashboard', 'grid', 'main.grid {'],
    ] as const
    for (const [path, main, mainRule] of pages) {
      const classes = classesOf(await (await fetch(`${server.url}${path}`)).text())
      for (const [name, rule] of [['top', 'header.top {'], ['panel', '.panel {'], [main, mainRule]] as const) {
        expect(classes, `${path} uses ${name}`).toContain(name)
        expect(css, rule).toContain(rule)
      }
    }
  })
})
