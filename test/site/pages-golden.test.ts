import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { rawRequest } from '../support/raw-http.js'

// Each page as `animals-mock serve` and `animals-mock proxy` serve it, compared with a golden file
// under test/node/golden/ (rendered for Host localhost:4010, so the output is stable). A page
// changed on purpose: `npx vitest run test/site/pages-golden.test.ts -u`, then read the diff.
// Through the CLI, as users start it: most of the markup is module-level constants, which a mutant
// changes only in a freshly started process. The files end in .htm, not .html: StrykerJS writes
// `// @ts-nocheck` into the scripts of every .html file under test/ in its sandbox.
const HOST = 'localhost:4010'
const KEYS = ['golden-key-one-2f6a', 'golden-key-two-8c03']
const SWAGGER_UI_DIST = fileURLToPath(new URL('../support/swagger-ui-dist.cjs', import.meta.url))

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

/** Starts the CLI on a free port; resolves with its origin. */
async function start(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const cli = spawnCli([...args, '--port', '0', '--quiet'], env)
  running.push(cli)
  return new URL(await waitForBaseUrl(cli)).origin
}

/** The environment of a CLI run where swagger-ui-dist is not installed, or installed in `folder`. */
function swaggerUiAt(folder?: string): Record<string, string> {
  const preload = `${process.env.NODE_OPTIONS ?? ''} --require=${SWAGGER_UI_DIST}`.trim()
  return { NODE_OPTIONS: preload, ...(folder === undefined ? {} : { SWAGGER_UI_DIST_DIR: folder }) }
}

type Served = { readonly status: number; readonly headers: IncomingHttpHeaders; readonly body: string }

/** GETs a path as a browser at `host` would. */
function get(origin: string, path: string, host = HOST, headers: Record<string, string> = {}): Promise<Served> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, path, setHost: false, headers: { ...headers, host } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    sent.on('error', reject).end()
  })
}

/** The page at `path`, after checking it is HTML that is never cached. */
async function page(origin: string, path: string): Promise<string> {
  const served = await get(origin, path)
  expect(served.status, path).toBe(200)
  expect(served.headers['content-type'], path).toBe('text/html; charset=utf-8')
  expect(served.headers['cache-control'], path).toBe('no-store')
  return served.body
}

const apiBaseOf = (html: string): string | undefined => /data-testid="api-base">([^<]*)</.exec(html)?.[1]

it('serves the landing page, the API reference and the dashboard with its script, and answers the health check', async () => {
  const origin = await start(['serve'])
  await expect(await page(origin, '/')).toMatchFileSnapshot('./golden/landing.htm')
  await expect(await page(origin, '/docs')).toMatchFileSnapshot('./golden/docs.htm')
  await expect(await page(origin, '/dashboard')).toMatchFileSnapshot('./golden/dashboard.htm')
  const script = await get(origin, '/assets/dashboard/main.js')
  expect(script.status).toBe(200)
  expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
  const health = await get(origin, '/healthz')
  expect(health.status).toBe(200)
  expect(health.body).toBe('{"status":"ok"}')
})

it('serves the landing page of a fake with API keys and a control token', async () => {
  const origin = await start(['serve', '--api-key', KEYS[0] ?? '', '--api-key', KEYS[1] ?? '', '--control-token', 'golden-control-token'])
  await expect(await page(origin, '/')).toMatchFileSnapshot('./golden/landing-token.htm')
})

it('serves the landing page and the dashboard of a fake with API keys and no control API', async () => {
  const origin = await start(['serve', '--api-key', KEYS[0] ?? '', '--api-key', KEYS[1] ?? '', '--no-control'])
  await expect(await page(origin, '/')).toMatchFileSnapshot('./golden/landing-no-control.htm')
  await expect(await page(origin, '/dashboard')).toMatchFileSnapshot('./golden/dashboard-no-control.htm')
  expect((await get(origin, '/assets/dashboard/main.js')).status).toBe(404)
})

it('says how to install swagger-ui-dist where it is not installed, and still serves the contract', async () => {
  const origin = await start(['serve'], swaggerUiAt())
  await expect(await page(origin, '/docs')).toMatchFileSnapshot('./golden/docs-without-swagger-ui.htm')
  expect((await get(origin, '/assets/swagger-ui/swagger-ui-bundle.js')).status).toBe(404)
  expect((await get(origin, '/assets/swagger-ui/swagger-ui.css')).status).toBe(404)
  expect((await get(origin, '/docs/openapi.json')).status).toBe(200)
  expect((await get(origin, '/openapi.yaml')).status).toBe(200)
})

it('answers 404 naming a file missing from swagger-ui-dist, and serves the file once it is there, without a restart', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'swagger-ui-dist-'))
  writeFileSync(join(folder, 'package.json'), '{"name":"swagger-ui-dist"}')
  const origin = await start(['serve'], swaggerUiAt(folder))
  const bundle = join(folder, 'swagger-ui-bundle.js')
  const missing = await get(origin, '/assets/swagger-ui/swagger-ui-bundle.js')
  expect(missing.status).toBe(404)
  expect(missing.headers['content-type']).toBe('application/json')
  expect(JSON.parse(missing.body)).toMatchObject({ code: 'route_not_found', status: 404, message: `${bundle} is missing; reinstall swagger-ui-dist (npm install swagger-ui-dist).` })
  writeFileSync(bundle, 'window.SwaggerUIBundle = () => undefined\n')
  const found = await get(origin, '/assets/swagger-ui/swagger-ui-bundle.js')
  expect(found.status).toBe(200)
  expect(found.headers['content-type']).toBe('text/javascript; charset=utf-8')
  expect(found.body).toBe('window.SwaggerUIBundle = () => undefined\n')
})

it('shows the API at the host name or address, and port, the browser used', async () => {
  const origin = await start(['serve', '--allowed-host', 'animals.test'])
  for (const host of ['animals.test:8080', 'animals.test', 'localhost', '127.0.0.1:4321', '[::1]', '[::1]:8080']) {
    expect(apiBaseOf((await get(origin, '/', host)).body), host).toBe(`http://${host}/v1`)
  }
})

it('shows the default address instead of a Host that is absent or more than a host name and a port', async () => {
  const origin = await start(['serve'])
  // HTTP/1.0 may leave Host out; the host policy looks at the name before the port only, so these reach the page.
  const pages = [await rawRequest(origin, 'GET / HTTP/1.0\r\n\r\n')]
  for (const host of ['localhost:80"><b>x</b>', 'localhost:<b>:80', 'localhost:123456', 'localhost:x[::1]:80', '[::1]:80"><b>x</b>']) {
    pages.push(await rawRequest(origin, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`))
  }
  for (const served of pages) {
    expect(served.status, served.head).toBe(200)
    expect(apiBaseOf(served.body), served.head).toBe('http://127.0.0.1:4010/v1')
    expect(served.body).not.toContain('<b>')
  }
})

it('shows the proxy\'s counts and each violation, newest first, with what the target sent escaped', async () => {
  // A target that drifts from the spec: an Error body whose status is markup (quoted in the rule
  // broken), and a list that is not one.
  const target = createServer((req, res) => {
    const answer = req.url === '/v1/pets/2' ? { code: 'not_found', message: 'No animal 2', status: `<b>Rex's</b> & co` } : req.url === '/v1/pets' ? [] : {}
    res.writeHead(req.url === '/v1/pets/2' ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
  })
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  const targetBase = `http://127.0.0.1:${(target.address() as { port: number }).port}/v1`
  try {
    const origin = await start(['proxy', '--target', targetBase])
    for (const path of ['/v1/pets', '/v1/pets?name=Rex&limit=5', '/v1/pets/2']) {
      expect((await get(origin, path, HOST, { authorization: 'Bearer golden-key-one-2f6a' })).status, path).toBeLessThan(500)
    }
    const dashboard = await page(origin, '/dashboard')
    expect(dashboard).toContain('&quot;&lt;b&gt;Rex&#39;s&lt;/b&gt; &amp; co&quot;')
    expect(dashboard).not.toContain('<b>')
    await expect(dashboard.replaceAll(targetBase, 'http://staging.test/v1')).toMatchFileSnapshot('./golden/proxy-dashboard.htm')
    expect(await page(origin, '/')).toBe(dashboard)
  } finally {
    target.close()
  }
})
