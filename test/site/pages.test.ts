import { coreOf } from '../../src/fake/assemble-fake.js'
import type { OpenAPIV3 } from 'openapi-types'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parseOpenApi, readOpenApiText } from '../../src/contracts/openapi.js'
import { createControl } from '../../src/fake/control.js'
import { createSite } from '../../src/site/site.js'
import { createHostPolicy } from '../../src/site/site-guard.js'
import { createFake } from '../../src/create-fake.js'
import { DASHBOARD_MODULES } from '../../src/site/dashboard-pages.js'
import { createPages, type PagesOptions } from '../../src/site/pages.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createApiClient } from '../support/api-client.js'
import { expectError } from '../support/expectations.js'
import { rawRequest } from '../support/raw-http.js'

const KEYS = ['page-key-one-7c2f', 'page-key-two-9e41']
const servers: RunningServer[] = []

async function serve(options: PagesOptions, withControl: boolean): Promise<ReturnType<typeof createApiClient>> {
  const fake = createFake({ keys: options.keys?.kind === 'listed' ? options.keys.keys : [] })
  const control = withControl ? { control: createControl({ core: coreOf(fake), document: 'openapi: 3.0.3' }) } : {}
  const hosts = createHostPolicy(['animals.test'])
  const server = await startServer({ app: createSite({ api: fake, pages: createPages(options), hosts, ...control }) })
  servers.push(server)
  return createApiClient(server.url)
}

let open: ReturnType<typeof createApiClient>
let closed: ReturnType<typeof createApiClient>
beforeAll(async () => {
  open = await serve({ control: 'open' }, true)
  closed = await serve({ keys: { kind: 'listed', keys: KEYS }, control: 'off' }, false)
})
afterAll(() => Promise.all(servers.map((server) => server.close())))

const hrefs = (html: string): string[] => [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1] ?? '')

it('links the reference, the dashboard and every document from the landing page, each of which answers 200', async () => {
  const landing = await open.call('/')
  expect(landing.status).toBe(200)
  expect(landing.headers.get('content-type')).toBe('text/html; charset=utf-8')
  const links = hrefs(landing.text).filter((href) => href.startsWith('/'))
  expect(links).toEqual(expect.arrayContaining(['/docs', '/dashboard', '/openapi.yaml', '/openapi.json', '/__control/openapi.yaml']))
  for (const link of links) expect((await open.call(link)).status, link).toBe(200)
})

it('shows how to authenticate, with a curl example on the address the client used', async () => {
  const { text } = await open.call('/')
  const origin = new URL(open.baseUrl).origin
  expect(text).toContain('Authorization: Bearer &lt;API key&gt;')
  expect(text).toContain('any non-empty bearer token')
  expect(text).toContain(`curl -H 'Authorization: Bearer dev-key' '${origin}/v1/pets?limit=5'`)
  const renamed = await rawRequest(origin, 'GET / HTTP/1.1\r\nHost: animals.test:8080\r\nConnection: close\r\n\r\n')
  expect(renamed.body).toContain("'http://animals.test:8080/v1/pets?limit=5'")
})

it('never echoes a Host that is not a host name: it is refused before any page', async () => {
  const origin = new URL(open.baseUrl).origin
  const forged = await rawRequest(origin, 'GET / HTTP/1.1\r\nHost: x"><script>alert(1)</script>\r\nConnection: close\r\n\r\n')
  expect(forged.status).toBe(403)
  expect(forged.body).not.toContain('<script>alert')
  expect(JSON.parse(forged.body)).toMatchObject({ code: 'host_not_allowed', status: 403 })
})

it('tells how many keys are accepted, never which, and leaves the dashboard out under --no-control', async () => {
  const { text } = await closed.call('/')
  expect(text).toContain('2 configured key(s)')
  for (const key of KEYS) expect(text).not.toContain(key)
  expect(text).toContain('--no-control')
  expect(hrefs(text)).not.toContain('/__control/openapi.yaml')
  const dashboard = await closed.call('/dashboard')
  expect(dashboard.status).toBe(200)
  expect(dashboard.text).toContain('data-testid="controls-disabled"')
  expect(dashboard.text).not.toContain('<script')
  expectError(await closed.call('/assets/dashboard/main.js'), 404, 'route_not_found')
})

it('serves the reference page with Swagger UI from the package, and a document whose first server is this fake', async () => {
  const page = await open.call('/docs')
  expect(page.status).toBe(200)
  const assets = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1] ?? '')
  expect(assets).toEqual(['/assets/swagger-ui/swagger-ui.css', '/assets/swagger-ui/swagger-ui-bundle.js'])
  const script = await open.call('/assets/swagger-ui/swagger-ui-bundle.js')
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  expect(script.text).toContain('SwaggerUIBundle')
  expect((await open.call('/assets/swagger-ui/swagger-ui.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
  expect(page.text).toContain('"validatorUrl":null')

  const served = (await open.call('/docs/openapi.json')).json as OpenAPIV3.Document
  const contract = parseOpenApi(readOpenApiText())
  // The contract with this fake first among its servers, and no example in a query parameter
  // (Swagger UI would pre-fill it: "Execute" would list only available animals).
  const { example: _limitExample, ...limit } = contract.components?.parameters?.limit as OpenAPIV3.ParameterObject
  const { example: _statusExample, ...statusSchema } = contract.components?.schemas?.PetStatus as OpenAPIV3.SchemaObject
  expect(served).toEqual({
    ...contract,
    servers: [{ url: '/v1', description: 'This fake (animals-mock)' }],
    components: { ...contract.components, parameters: { limit, status: { ...contract.components?.parameters?.status, schema: statusSchema } } },
  })
  expect(JSON.stringify(served.components?.parameters)).not.toContain('example')
  const validation = await new Validator().validate(served as unknown as Parameters<Validator['validate']>[0])
  expect(validation.errors ?? []).toEqual([])
  expect((await open.call('/openapi.yaml')).text).toBe(readOpenApiText())
})

it('serves the dashboard and each of its modules, and every module the build emits is served', async () => {
  const page = await open.call('/dashboard')
  expect(page.text).toContain('<script type="module" src="/assets/dashboard/main.js"></script>')
  const sources = readdirSync(fileURLToPath(new URL('../../src/dashboard/', import.meta.url)))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -3))
  expect([...DASHBOARD_MODULES].sort()).toEqual(sources.sort())
  for (const name of DASHBOARD_MODULES) {
    const module = await open.call(`/assets/dashboard/${name}.js`)
    expect(module.status, name).toBe(200)
    expect(module.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    // Only relative imports of served modules: the browser can fetch nothing else.
    for (const [, target] of module.text.matchAll(/from '([^']+)'/g)) {
      expect(DASHBOARD_MODULES.map((served) => `./${served}.js`), `${name} imports ${target}`).toContain(target)
    }
  }
})

it('answers HEAD on pages built on first request without a body, and refuses other methods', async () => {
  const head = await open.call('/openapi.json', { method: 'HEAD' })
  expect(head.status).toBe(200)
  expect(head.text).toBe('')
  const posted = await open.call('/dashboard', { method: 'POST', body: '{}' })
  expectError(posted, 405, 'method_not_allowed')
})
