import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { PROXY_HELP } from '../../src/cli/proxy.js'
import { type CliProcess, runCli, type ServingCli, spawnCli, startServing, stopCli, waitForBaseUrl } from '../support/cli.js'
import { closedPort } from '../support/deployments.js'
import { rawRequest, type RawResponse } from '../support/raw-http.js'

// `animals-mock proxy` met as a process, at the edges test/cli/proxy.test.ts (in-process) and
// test/proxy/proxy.test.ts leave: help, defaults, the pages it does not serve, bodies on GET and
// HEAD, an unreachable target, and the name of its JUnit report.

const KEY = 'proxy-edges-key-5d9'
const running: CliProcess[] = []
const targets: Server[] = []
afterEach(async () => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
  for (const server of targets.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

type Seen = { readonly method: string; readonly url: string; readonly body: string }

/** A target that answers every request 200 with an empty list, and records what reached it. */
async function target(): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    })
  })
  targets.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen }
}

// Node's server drops a request whose client half-closes before the answer, and the proxy's
// answer waits for the target: these requests keep their side open (send `Connection: close`).
const requestLater = (origin: string, bytes: string): Promise<RawResponse> => rawRequest(origin, bytes, { halfClose: false })

const startProxy = (args: readonly string[], cwd?: string): Promise<ServingCli> => startServing(['proxy', '--port', '0', ...args], running, cwd === undefined ? {} : { cwd })
const stop = stopCli

it('prints its help for proxy --help, exit code 0', async () => {
  const { code, stdout, stderr } = await runCli(['proxy', '--help'])
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  expect(stdout).toMatch(/^Usage: animals-mock proxy --target <url> \[options\] \[-- <command> \[args\]\]\n\n/)
  expect(stdout).toBe(PROXY_HELP)
})

it('writes no file without --report: the working directory stays empty', async () => {
  const upstream = await target()
  const cwd = mkdtempSync(join(tmpdir(), 'proxy-edges-cwd-'))
  const { cli, base } = await startProxy(['--target', upstream.base, '--quiet'], cwd)
  expect((await fetch(`${base}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200)
  expect(await stop(cli)).toBe(0)
  expect(readdirSync(cwd)).toEqual([])
})

it('prints a request line for each request without --quiet', async () => {
  const upstream = await target()
  const { cli, base } = await startProxy(['--target', upstream.base])
  expect((await fetch(`${base}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200)
  expect(await stop(cli)).toBe(0)
  expect(cli.stdout().split('\n')).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d GET \/v1\/pets 200 \d+\.\dms$/))
})

it("serves none of the fake's dashboard modules: the proxy's dashboard is its own page", async () => {
  const upstream = await target()
  const { origin } = await startProxy(['--target', upstream.base, '--quiet'])
  const answer = await fetch(`${origin}/assets/dashboard/main.js`)
  expect(answer.status).toBe(404)
  expect(await answer.json()).toEqual({
    code: 'route_not_found',
    message: 'Nothing is served at /assets/dashboard/main.js; the API is under /v1.',
    status: 404,
  })
  expect(upstream.seen).toEqual([])
})

it('answers a Host named with --allowed-host, and still refuses any other name', async () => {
  const upstream = await target()
  const { origin } = await startProxy(['--target', upstream.base, '--quiet', '--allowed-host', 'qa-box.internal'])
  const port = new URL(origin).port
  const request = (host: string): string =>
    `GET /v1/pets HTTP/1.1\r\nHost: ${host}:${port}\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`
  const allowed = await requestLater(origin, request('qa-box.internal'))
  expect(allowed.status).toBe(200)
  expect(allowed.body).toBe('[]')
  expect(upstream.seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /v1/pets'])
  const other = await requestLater(origin, request('elsewhere.internal'))
  expect(other.status).toBe(403)
  expect(JSON.parse(other.body)).toMatchObject({ code: 'host_not_allowed' })
  expect(upstream.seen).toHaveLength(1)
})

it('forwards a GET or HEAD that carries a body without the body, and passes on the answer, not a 502', async () => {
  const upstream = await target()
  const { origin } = await startProxy(['--target', upstream.base, '--quiet'])
  for (const method of ['GET', 'HEAD']) {
    const answer = await requestLater(
      origin,
      `${method} /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: text/plain\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx`,
    )
    expect(answer.status, `${method}: ${answer.body}`).toBe(200)
    expect(answer.body, method).toBe(method === 'GET' ? '[]' : '')
  }
  expect(upstream.seen.map(({ method, url, body }) => [method, url, body])).toEqual([
    ['GET', '/v1/pets', ''],
    ['HEAD', '/v1/pets', ''],
  ])
})

it('answers 502 naming why it could not reach the target: a refused connection', async () => {
  // A port that was free a moment ago: nothing listens there.
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const port = (closed.address() as AddressInfo).port
  await new Promise((resolve) => closed.close(resolve))
  const unreachable = `http://127.0.0.1:${port}/v1`
  const { base } = await startProxy(['--target', unreachable, '--quiet'])
  const answer = await fetch(`${base}/pets`, { headers: { authorization: `Bearer ${KEY}` } })
  expect(answer.status).toBe(502)
  expect(await answer.json()).toEqual({
    code: 'bad_gateway',
    message: `The proxy could not reach ${unreachable}: connection refused (ECONNREFUSED); the request was not retried.`,
    status: 502,
  })
})

it('names the JUnit report after the proxy: <testsuites name="animals-mock proxy">', async () => {
  const upstream = await target()
  const report = join(mkdtempSync(join(tmpdir(), 'proxy-edges-report-')), 'r.xml')
  const { cli, base } = await startProxy(['--target', upstream.base, '--quiet', '--report', report])
  await fetch(`${base}/pets`, { headers: { authorization: `Bearer ${KEY}` } })
  expect(await stop(cli)).toBe(0)
  expect(readFileSync(report, 'utf8')).toContain('<testsuites name="animals-mock proxy"')
})

// As test/cli/serve.test.ts does for serve: the default is seen either listening or refused by name.
it('listens on port 4010 and host 127.0.0.1 by default', async () => {
  const cli = spawnCli(['proxy', '--target', `http://127.0.0.1:${await closedPort()}/v1`])
  try {
    const outcome = await Promise.race([waitForBaseUrl(cli).then((url) => ({ url })), cli.exited.then(() => ({ url: '' }))])
    if (outcome.url === '') {
      // Something else holds 4010 on this machine; the refusal still names the default.
      expect(cli.stderr()).toContain('port 4010 on 127.0.0.1 is already in use')
    } else {
      expect(outcome.url).toBe('http://127.0.0.1:4010/v1')
    }
  } finally {
    cli.child.kill('SIGKILL')
    await cli.exited
  }
})
