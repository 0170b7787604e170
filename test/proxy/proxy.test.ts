import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSite } from '../../src/site/site.js'
import { createFake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { CONFORMANCE_CASES, CONFORMANCE_KEYS } from '../conformance/cases.js'
import { createApiClient } from '../support/api-client.js'
import { type CliProcess, type ServingCli, spawnCli, startServing, stopCli, waitForBaseUrl } from '../support/cli.js'
import { shippedPets } from '../support/fixtures.js'
import { type Drift, startIndependentService } from '../support/independent-service/service.js'

const KEY = 'proxy-key-7c21e4'
const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

const startProxy = (target: string, extra: readonly string[] = []): Promise<ServingCli> => startServing(['proxy', '--target', target, '--port', '0', '--quiet', ...extra], running)
const stop = stopCli

const violationsOf = async (origin: string): Promise<{ violations: number; entries: { violations: { aspect: string; reason: string }[] }[] }> =>
  (await fetch(`${origin}/__proxy/violations`)).json() as Promise<{ violations: number; entries: { violations: { aspect: string; reason: string }[] }[] }>

describe('in front of the fake: the conformance table passes through it, and no answer is a violation', () => {
  const pets = shippedPets('default')
  const fake = createFake({ pets, keys: CONFORMANCE_KEYS })
  let target: RunningServer
  let proxied: { cli: CliProcess; base: string; origin: string }
  beforeAll(async () => {
    target = await startServer({ app: createSite({ api: fake }) })
    proxied = await startProxy(`${target.url}/v1`)
    running.splice(running.indexOf(proxied.cli), 1)
  })
  afterAll(async () => {
    proxied.cli.child.kill('SIGKILL')
    await target.close()
  })
  beforeEach(() => fake.reset())
  it.each(CONFORMANCE_CASES.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) =>
    testCase.run({ api: createApiClient(proxied.base), pets, basePath: '/v1' }),
  )
  it('reported no violation over the whole table', async () => {
    const seen = await violationsOf(proxied.origin)
    expect(seen.entries.flatMap((entry) => entry.violations)).toEqual([])
  })
})

/** The traffic of a frontend, with the spec's error cases: what the proxy judges below. */
async function traffic(base: string): Promise<void> {
  const api = createApiClient(base, KEY)
  await api.authed('/pets')
  await api.authed('/pets', { query: 'limit=5' })
  await api.authed('/pets', { query: 'status=sold&limit=100' })
  await api.authed('/pets', { query: 'limit=101' })
  await api.authed('/pets', { query: 'status=bogus' })
  await api.authed('/pets', { method: 'POST', body: { name: 'Biscuit', categoryId: 3, status: 'pending' } })
  await api.authed('/pets', { method: 'POST', body: { name: 'Rex', categoryId: 2 } })
  await api.authed('/pets', { method: 'POST', body: { categoryId: 2 } })
  await api.authed('/pets/2')
  await api.authed('/pets/999999')
  await api.call('/pets')
  await api.call('/pets', { headers: { authorization: 'Bearer ' } })
}

it('finds no violation in front of an independent implementation that chooses otherwise where the spec is open', async () => {
  const service = await startIndependentService({ keys: [KEY], seeded: 120 })
  try {
    const { origin, base } = await startProxy(service.baseUrl)
    await traffic(base)
    expect((await violationsOf(origin)).entries.flatMap((entry) => entry.violations)).toEqual([])
  } finally {
    await service.close()
  }
})

describe('reports each drift with the rule it breaks', () => {
  const DRIFTS: readonly [Drift, RegExp][] = [
    ['the status filter is ignored', /^VIOLATION GET \/v1\/pets\?status=sold&limit=100 200 body: .*not sold/m],
    ['limit=101 answered with 101 animals', /^VIOLATION GET \/v1\/pets\?limit=101 200 count: /m],
    ['status=bogus answered 200', /^VIOLATION GET \/v1\/pets\?status=bogus 200 status: /m],
    ['createPet answers 200', /^VIOLATION POST \/v1\/pets 200 status: /m],
    ['the created animal loses its status', /^VIOLATION POST \/v1\/pets 201 body: /m],
    ['Error status differs from HTTP status', /^VIOLATION GET \/v1\/pets\/999999 404 body: an Error body with "status" 400 instead of 404/m],
    ['ids are strings', /^VIOLATION GET \/v1\/pets\/2 200 body: the body is not a Pet/m],
    ['the key is not checked', /^VIOLATION GET \/v1\/pets 200 status: a request without Authorization was answered 200/m],
    ['empty token accepted', /^VIOLATION GET \/v1\/pets 200 status: a request with an empty bearer token was answered 200/m],
    ['Sunset of 1 December 2030', /^VIOLATION GET \/v1\/pets\/2 200 header Sunset: /m],
  ]
  for (const [drift, line] of DRIFTS) {
    it(`when ${drift}`, async () => {
      const service = await startIndependentService({ keys: [KEY], seeded: 120, drift })
      try {
        const { cli, base } = await startProxy(service.baseUrl, ['--fail-on-violation'])
        await traffic(base)
        expect(await stop(cli)).toBe(1)
        expect(cli.stdout()).toMatch(line)
        expect(cli.stdout()).toMatch(/spec [0-9.]+: "/)
      } finally {
        await service.close()
      }
    })
  }
})

/** A target that counts requests and answers as `answer` says. */
async function countingTarget(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ base: string; seen: () => number; close: () => Promise<void> }> {
  let count = 0
  const server: Server = createServer((req, res) => {
    count += 1
    req.resume()
    answer(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    base: `http://127.0.0.1:${port}/v1`,
    seen: () => count,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

it('answers 502 with the Error body when the target cannot be reached, and never retries a POST', async () => {
  const target = await countingTarget((_req, res) => res.socket?.destroy())
  try {
    const { base } = await startProxy(target.base)
    const api = createApiClient(base, KEY)
    const created = await api.authed('/pets', { method: 'POST', body: { name: 'Once', categoryId: 1 } })
    expect(created.status).toBe(502)
    expect(created.json).toMatchObject({ code: 'bad_gateway', status: 502 })
    expect(target.seen()).toBe(1)
  } finally {
    await target.close()
  }
  const closed = await startProxy('http://127.0.0.1:9/v1')
  const refused = await createApiClient(closed.base, KEY).authed('/pets')
  expect(refused.status).toBe(502)
  expect((refused.json as { message: string }).message).toContain('http://127.0.0.1:9/v1')
})

it('answers 504 when the target does not answer in time, and refuses a body over 1 MiB before sending it', async () => {
  const target = await countingTarget(() => undefined)
  try {
    const { base } = await startProxy(target.base, ['--timeout', '300'])
    const api = createApiClient(base, KEY)
    const slow = await api.authed('/pets')
    expect(slow.status).toBe(504)
    expect(slow.json).toMatchObject({ code: 'gateway_timeout', status: 504 })
    const large = await api.authed('/pets', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(1_048_577) }), headers: { 'content-type': 'application/json' } })
    expect(large.status).toBe(413)
    expect(target.seen()).toBe(1)
  } finally {
    await target.close()
  }
})

it('passes the client\'s own key on, answers preflights, and scrubs the key from its log, journal and reports', async () => {
  let received = ''
  // A drifted target that echoes the key in an Error body whose status is wrong.
  const target = await countingTarget((req, res) => {
    received = req.headers.authorization ?? ''
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'x', message: `no such animal for ${received}`, status: 400 }))
  })
  const dir = mkdtempSync(join(tmpdir(), 'proxy-report-'))
  try {
    const { cli, base, origin } = await startProxy(target.base, ['--report', join(dir, 'report.json'), '--report', join(dir, 'report.xml')])
    const got = await createApiClient(base, KEY).authed('/pets/7', { query: `api_key=${KEY}` })
    expect(got.status).toBe(404)
    expect(received).toBe(`Bearer ${KEY}`)
    expect(got.headers.get('access-control-allow-origin')).toBe('*')
    const preflight = await fetch(`${base}/pets`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } })
    expect(preflight.status).toBe(204)
    expect(target.seen()).toBe(1)
    const journal = await (await fetch(`${origin}/__proxy/journal`)).text()
    const dashboard = await (await fetch(`${origin}/dashboard`)).text()
    expect(dashboard).toContain('data-testid="violation-count">1<')
    expect(await stop(cli)).toBe(0)
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { violations: number; entries: { aspect: string }[] }
    expect(json.violations).toBe(1)
    expect(json.entries[0]?.aspect).toBe('body')
    const xml = readFileSync(join(dir, 'report.xml'), 'utf8')
    expect(xml).toContain('failures="1"')
    for (const text of [cli.stdout(), cli.stderr(), journal, dashboard, JSON.stringify(json), xml]) expect(text).not.toContain(KEY)
  } finally {
    await target.close()
  }
})

it('records every animal seen as a fixture that serve --fixture loads', async () => {
  const service = await startIndependentService({ keys: [KEY], seeded: 40 })
  const file = join(mkdtempSync(join(tmpdir(), 'proxy-record-')), 'seen.json')
  try {
    const { cli, base } = await startProxy(service.baseUrl, ['--record', file])
    await traffic(base)
    expect(await stop(cli)).toBe(0)
    expect(cli.stderr()).toMatch(/recorded [0-9]+ animals to /)
  } finally {
    await service.close()
  }
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as { id: number; name: string }[]
  expect(recorded.some((pet) => pet.name === 'Biscuit')).toBe(true)
  expect(new Set(recorded.map((pet) => pet.id)).size).toBe(recorded.length)
  const served = spawnCli(['serve', '--port', '0', '--fixture', file, '--quiet'])
  running.push(served)
  const listed = await createApiClient(await waitForBaseUrl(served), KEY).authed('/pets', { query: 'limit=100' })
  expect((listed.json as unknown[]).length).toBe(Math.min(100, recorded.length))
})

