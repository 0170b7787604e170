import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, request as httpRequest } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { hasChromium, launchChromium } from '../support/browser.js'
import { type CliProcess, type ServingCli, startServing, stopCli } from '../support/cli.js'
import { createReportDir } from '../support/deployments.js'
import { gzipBomb, gzippedList, type HostileTarget, startHostileTarget } from '../support/hostile-target.js'

// `animals-mock proxy` in front of a target that attacks it, run as users run it: the built CLI.
const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

let target: HostileTarget
let bomb: Buffer
beforeAll(async () => {
  bomb = await gzipBomb()
  target = await startHostileTarget({ bomb, list: await gzippedList(300_000_000) })
})
afterAll(() => target.close())

const startProxy = (extra: readonly string[] = []): Promise<ServingCli> => startServing(['proxy', '--target', target.baseUrl, '--port', '0', '--quiet', ...extra], running)
const stop = stopCli

type Raw = { readonly status: number; readonly headers: readonly string[]; readonly body: Buffer }

/** A GET with node:http, which, unlike fetch, hands back the bytes as they came, never inflated. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { authorization: 'Bearer hostile-key-1', ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Every value of a header, in order, from a raw header list. */
function valuesOf(raw: Raw, name: string): string[] {
  const values: string[] = []
  for (let i = 0; i + 1 < raw.headers.length; i += 2) if (raw.headers[i]?.toLowerCase() === name) values.push(raw.headers[i + 1] ?? '')
  return values
}

/** The process's peak resident memory, in bytes (Linux: VmHWM). */
function peakRss(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/^VmHWM:\s+([0-9]+) kB$/m.exec(status)?.[1]) * 1024
}

// The checker runs in a process of its own, so the test's own work (the target streams from this
// process) cannot slow it down: it asks the proxy's /healthz over and over and counts the 200s.
// How long those answers take is measured in a benchmark (`npm run bench:proxy`,
// bench/proxy-hostile.ts), beside a bare server, with the processes pinned to their cores.
const CHECKER = `
  const [proxy] = process.argv.slice(1)
  let answered = 0
  let stopping = false
  process.on('SIGTERM', () => { stopping = true })
  ;(async () => {
    console.log('checking')
    while (!stopping) {
      const response = await fetch(proxy + '/healthz')
      await response.arrayBuffer()
      if (response.status === 200) answered += 1
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    console.log(answered)
  })()`

/** Asks /healthz over and over from another process while `work` runs; resolves with the work's result and how many 200s came meanwhile. */
async function whileHealthChecked<T>(origin: string, work: () => Promise<T>): Promise<{ result: T; checks: number }> {
  const checker = spawn(process.execPath, ['-e', CHECKER, origin], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  checker.stdout.setEncoding('utf8').on('data', (text: string) => (out += text))
  const exited = new Promise((resolve) => checker.on('exit', resolve))
  while (!out.includes('checking\n')) await new Promise((resolve) => setTimeout(resolve, 5))
  const result = await work()
  checker.kill('SIGTERM')
  await exited
  return { result, checks: Number(out.slice(out.indexOf('\n') + 1)) }
}

const describeLinux = process.platform === 'linux' ? it : it.skip

describeLinux('answers four concurrent 300 MB answers with 502 as the cap passes, holding under 200 MB, /healthz answering meanwhile', async () => {
  const { cli, base, origin } = await startProxy()
  const { result, checks } = await whileHealthChecked(origin, () => Promise.all(Array.from({ length: 4 }, () => rawGet(`${base}/pets?size=300000000`))))
  for (const answer of result) {
    expect(answer.status).toBe(502)
    expect(JSON.parse(answer.body.toString())).toEqual({
      code: 'bad_gateway',
      message: `The answer of ${target.baseUrl} passed 8388608 bytes (--max-answer-bytes), so it was not passed on.`,
      status: 502,
    })
  }
  expect(checks).toBeGreaterThan(0)
  expect(peakRss(cli.child.pid)).toBeLessThan(200 * 1024 * 1024)
  // --max-answer-bytes sets the cap.
  const small = await startProxy(['--max-answer-bytes', '1024'])
  expect((await rawGet(`${small.base}/pets?size=2000`)).status).toBe(502)
  expect((await rawGet(`${small.base}/pets?size=500`)).status).toBe(200)
})

describeLinux('passes a gzip bomb on as the target sent it, 407 KB with its Content-Encoding, decoding it only up to the cap to judge', async () => {
  const { cli, base, origin } = await startProxy()
  const { result: answer, checks } = await whileHealthChecked(origin, () => rawGet(`${base}/pets?gzip=bomb`))
  expect(answer.status).toBe(200)
  expect(valuesOf(answer, 'content-encoding')).toEqual(['gzip'])
  expect(answer.body.equals(bomb)).toBe(true)
  expect(valuesOf(answer, 'content-length')).toEqual([String(bomb.length)])
  expect(checks).toBeGreaterThan(0)
  expect(peakRss(cli.child.pid)).toBeLessThan(200 * 1024 * 1024)
  expect(await stop(cli)).toBe(0)
  expect(cli.stdout()).toContain('NOT JUDGED GET /v1/pets?gzip=bomb 200: the answer was passed on without its body judged: decoded, it passes --max-answer-bytes (8388608 bytes)\n')
})

describeLinux('passes a 1.9 MB gzip of a valid 300 MB list on at once, unjudged past the cap, /healthz answering meanwhile', async () => {
  const { cli, base, origin } = await startProxy()
  const { result: answer, checks } = await whileHealthChecked(origin, () => rawGet(`${base}/pets?gzip=list`))
  expect(answer.status).toBe(200)
  expect(answer.body.length).toBeLessThan(2_000_000)
  expect(checks).toBeGreaterThan(0)
  expect(peakRss(cli.child.pid)).toBeLessThan(200 * 1024 * 1024)
  // Decoded no further than the cap, where the whole 300 MB took 10 s to parse and judge.
  expect(await stop(cli)).toBe(0)
  expect(cli.stdout()).toContain('NOT JUDGED GET /v1/pets?gzip=list 200: the answer was passed on without its body judged: decoded, it passes --max-answer-bytes (8388608 bytes)\n')
})

describeLinux('judges a 4 MB list in a worker: the violation is found, /healthz answering meanwhile', async () => {
  const { cli, base, origin } = await startProxy()
  const { result: answer, checks } = await whileHealthChecked(origin, () => rawGet(`${base}/pets?size=4000000`))
  expect(answer.status).toBe(200)
  expect(checks).toBeGreaterThan(0)
  expect(await stop(cli)).toBe(0)
  expect(cli.stdout()).toMatch(/^VIOLATION GET \/v1\/pets\?size=4000000 200 count: [0-9]{5} animals listed, more than the default 20; spec 4\.1/m)
})

it('ends an exchange at --timeout when the answer trickles, 504 with the Error body', async () => {
  const { base } = await startProxy(['--timeout', '800'])
  const answer = await rawGet(`${base}/pets?trickle=1`)
  expect(answer.status).toBe(504)
  expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'gateway_timeout', status: 504 })
})

/** Sends a request line as written, as `curl --path-as-is` does, and resolves with what came back. */
function asIs(origin: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer k\r\nConnection: close\r\n\r\n`))
    let received = ''
    socket.setEncoding('utf8').on('data', (text: string) => (received += text))
    socket.on('error', reject)
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 ([0-9]{3})/.exec(received)?.[1]), body: received.slice(received.indexOf('\r\n\r\n') + 4) }))
  })
}

it('refuses a path that would leave the target\'s base, sending nothing on, and passes the rest', async () => {
  const { origin } = await startProxy()
  const before = target.seen.length
  for (const path of ['/v1/%2e%2e/admin', '/v1/../admin', '/v1/pets/..\\..\\secret', '/v1/pets/%2E%2E', '/v1/./pets', '/v1/pets/a%5cb', '/v1/%2e/pets']) {
    const answer = await asIs(origin, path)
    expect(answer.status, path).toBe(400)
    expect(JSON.parse(answer.body), path).toMatchObject({ code: 'bad_request', status: 400 })
    expect(JSON.parse(answer.body).message, path).toContain("the proxy sends nothing outside the target's base")
  }
  expect(target.seen.slice(before)).toEqual([])
  // Dots that are not whole segments are a name like any other.
  expect((await asIs(origin, '/v1/pets/..7')).status).toBe(200)
  expect((await asIs(origin, '/v1/pets/1')).status).toBe(200)
  expect(target.seen.slice(before).map((request) => request.url)).toEqual(['/api/v1/pets/..7', '/api/v1/pets/1'])
})

it('keeps each Set-Cookie, and passes no header a Connection names, either way; Cookie only with --forward-cookies', async () => {
  const { base } = await startProxy()
  const before = target.seen.length
  const answer = await rawGet(`${base}/pets?cookies=1`, { connection: 'keep-alive, x-client-hop', 'x-client-hop': 'not for the target', cookie: 'other-app=session-9' })
  expect(valuesOf(answer, 'set-cookie')).toEqual(['first=1; Path=/', 'second=2; Path=/'])
  expect(valuesOf(answer, 'x-target-hop')).toEqual([])
  const [sent] = target.seen.slice(before)
  expect(sent?.headers['x-client-hop']).toBeUndefined()
  expect(sent?.headers.cookie).toBeUndefined()
  expect(sent?.headers.authorization).toBe('Bearer hostile-key-1')
  const forwarding = await startProxy(['--forward-cookies'])
  await rawGet(`${forwarding.base}/pets`, { cookie: 'staging-session=s-1' })
  expect(target.seen.at(-1)?.headers.cookie).toBe('staging-session=s-1')
})

it('writes no credential the request carried into any output, a key without a scheme included, nor garbles the text for a one-letter key', async () => {
  const reports = createReportDir()
  try {
    const { cli, base, origin } = await startProxy(['--report', reports.path('proxy.json'), '--report', reports.path('proxy.xml'), '--forward-cookies', '--record', reports.path('recorded.json')])
    const secrets = ['RAWKEY-no-scheme-5521', 'COOKIESECRET-77']
    await rawGet(`${base}/pets/9?echo=error`, { authorization: 'RAWKEY-no-scheme-5521' })
    await rawGet(`${base}/pets?echo=1`, { authorization: 'Bearer sekrit-key-123', cookie: 'session=COOKIESECRET-77' })
    await rawGet(`${base}/pets/9?echo=error`, { authorization: 'Bearer a' })
    const violations = await (await fetch(`${origin}/__proxy/violations`)).text()
    const journal = await (await fetch(`${origin}/__proxy/journal`)).text()
    const dashboard = await (await fetch(`${origin}/dashboard`)).text()
    expect(await stop(cli)).toBe(0)
    const outputs = [cli.stdout(), cli.stderr(), violations, journal, dashboard, reports.read('proxy.json'), reports.read('proxy.xml'), reports.read('recorded.json')]
    for (const secret of [...secrets, 'sekrit-key-123']) for (const output of outputs) expect(output).not.toContain(secret)
    // The reasons read as written, the key's place in them marked, for a key of one letter too.
    const reasons = (JSON.parse(violations) as { entries: { seq: number; violations: { reason: string }[] }[] }).entries.map((entry) => [entry.seq, entry.violations.map((each) => each.reason.replace(/; spec .*/, ''))])
    expect(reasons).toEqual([
      // A key without a scheme reads as another scheme, which the service must refuse.
      [1, ['a request with a scheme other than Bearer was answered 404', 'an Error body with "status" "[redacted]" instead of 404, the HTTP status', 'Sunset says [redacted], not 5 December 2030']],
      [3, ['an Error body with "status" "[redacted]" instead of 404, the HTTP status', 'Sunset says [redacted], not 5 December 2030']],
    ])
    expect(cli.stdout()).toContain('VIOLATION GET /v1/pets/9?echo=error 404 body: an Error body with "status" "[redacted]" instead of 404, the HTTP status;')
    // Only the animal without a credential is recorded; the others are counted.
    expect(JSON.parse(reports.read('recorded.json'))).toEqual([{ id: 3, name: 'Nothing secret', categoryId: 1, status: 'sold' }])
    expect(cli.stderr()).toContain(`animals-mock: recorded 1 animals to ${reports.path('recorded.json')}; 2 left out: the latest answer showing them held a credential the request carried\n`)
  } finally {
    reports.remove()
  }
})

it('gives the proxy\'s journal to no page of another origin: 403 and no CORS; tools and its own pages read it', async () => {
  const { base, origin } = await startProxy()
  await rawGet(`${base}/pets?limit=1`)
  for (const path of ['/__proxy/journal', '/__proxy/violations']) {
    const foreign = await fetch(`${origin}${path}`, { headers: { origin: 'https://evil.example' } })
    expect(foreign.status, path).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin'), path).toBeNull()
    expect(await foreign.json()).toMatchObject({ code: 'origin_not_allowed', status: 403 })
    const crossSite = await fetch(`${origin}${path}`, { headers: { 'sec-fetch-site': 'cross-site' } })
    expect(crossSite.status, path).toBe(403)
    for (const headers of [{}, { origin }]) {
      const allowed = await fetch(`${origin}${path}`, { headers })
      expect(allowed.status, path).toBe(200)
      expect(allowed.headers.get('access-control-allow-origin'), path).toBeNull()
    }
  }
})

it.skipIf(!hasChromium)('keeps the proxy\'s journal from a page of another origin in Chromium, which the page could read before', async () => {
  const { base, origin } = await startProxy()
  await rawGet(`${base}/pets?limit=1`)
  // Another origin on this machine: a page served from another port, as any local dev server is.
  const pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a page</p>'))
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve))
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`)
    const read = (path: string) =>
      page.evaluate(async (url) => {
        try {
          return `read: ${await (await fetch(url)).text()}`
        } catch (error) {
          return `refused: ${String(error)}`
        }
      }, `${origin}${path}`)
    expect(await read('/__proxy/journal')).toMatch(/^refused: TypeError/)
    expect(await read('/__proxy/violations')).toMatch(/^refused: TypeError/)
    // The API itself is open to every origin, as the fake's is: the page could reach the proxy.
    expect(await read('/v1/pets?limit=1')).toMatch(/^read: \[/)
  } finally {
    await browser.close()
    pages.close()
  }
})
