import { readdirSync, readFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { type IndependentService, startIndependentService } from '../support/independent-service/service.js'

// A request that repeats its own key (in an animal's name, a query, the path, a Referer, an
// X-Forwarded-For) or its cookie: no output shows them, in the server's journal and both log
// formats, the pact it records, and the proxy's log, journal, reports and recording.
const KEY = 'real-KEY-abcdef123'
const COOKIE = 'cookie-VALUE-5e2d71'
// A key sent without a scheme, its first word no scheme at all.
const SPACED = 'zq7first KEY-second-88'
const running: CliProcess[] = []
const services: IndependentService[] = []
afterAll(async () => {
  for (const cli of running) cli.child.kill('SIGKILL')
  await Promise.all(services.map((service) => service.close()))
})

/** Every way one request repeats its credentials, sent to `base` (an API base with /v1). */
async function repeatEverywhere(base: string): Promise<void> {
  const auth = { authorization: `Bearer ${KEY}`, cookie: `session=${COOKIE}` }
  const json = { ...auth, 'content-type': 'application/json' }
  await fetch(`${base}/pets`, { method: 'POST', headers: json, body: JSON.stringify({ name: `Rex ${KEY} ${COOKIE}`, categoryId: 1 }) })
  await fetch(`${base}/pets?limit=1&q=${KEY}&c=${COOKIE}`, { headers: { ...auth, referer: `http://app.example/page?token=${KEY}`, 'x-forwarded-for': `${KEY}, 10.0.0.1` } })
  await fetch(`${base}/pets/${KEY}`, { headers: auth })
  await fetch(`${base}/pets/${encodeURIComponent(COOKIE)}`, { headers: auth })
  await fetch(`${base}/pets/zq7first`, { headers: { authorization: SPACED } })
}

function expectNone(outputs: Record<string, string>): void {
  for (const [where, text] of Object.entries(outputs)) {
    for (const secret of [KEY, COOKIE, 'zq7first', 'KEY-second-88']) expect(text, `${secret} in ${where}`).not.toContain(secret)
  }
}

describe.each(['text', 'json'] as const)('serve, its request log as %s', (format) => {
  it('shows none of the credentials a request repeats: journal, log lines, recorded pact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'echoed-'))
    const cli = spawnCli(['serve', '--port', '0', '--api-key', KEY, '--log-format', format, '--record-pact', dir, '--consumer', 'echo-app'])
    running.push(cli)
    const base = await waitForBaseUrl(cli)
    await repeatEverywhere(base)
    const control = (path: string) => fetch(base.replace(/\/v1$/, `/__control${path}`), { headers: { authorization: `Bearer ${KEY}` } })
    const journal = await (await control('/journal')).text()
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
    const pacts = readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8')).join('\n')
    expect(pacts).toContain('"description": "a request to add an animal')
    // What was sent is still there to read, each credential in its place marked.
    const entries = (JSON.parse(journal) as { entries: { path: string; query: string; body?: string; headers: Record<string, string> }[] }).entries
    expect(entries.map((entry) => entry.path)).toEqual(['/v1/pets', '/v1/pets', '/v1/pets/[redacted]', '/v1/pets/[redacted]', '/v1/pets/zq7first'.replace('zq7first', '[redacted]')])
    expect(entries[0]?.body).toBe('{"name":"Rex [redacted] [redacted]","categoryId":1}')
    expect(entries[1]?.query).toBe('limit=1&q=[redacted]&c=[redacted]')
    expect(entries[1]?.headers).toMatchObject({ referer: 'http://app.example/page?token=[redacted]', 'x-forwarded-for': '[redacted], 10.0.0.1', cookie: '[redacted]' })
    expect(entries[4]?.headers.authorization).toBe('[redacted]')
    expect(cli.stdout()).toContain(format === 'json' ? '"path":"/v1/pets/[redacted]"' : 'GET /v1/pets/[redacted] 400')
    expectNone({ stdout: cli.stdout(), stderr: cli.stderr(), journal, pacts })
  })
})

describe.each(['text', 'json'] as const)('proxy, its request log as %s', (format) => {
  it('shows none of the credentials a request repeats: log lines, journal, violations, reports, recording', async () => {
    const service = await startIndependentService({ keys: [KEY], seeded: 3 })
    services.push(service)
    const dir = mkdtempSync(join(tmpdir(), 'echoed-proxy-'))
    const reports = ['proxy.json', 'proxy.xml'].map((name) => join(dir, name))
    const cli = spawnCli(['proxy', '--target', service.baseUrl, '--port', '0', '--log-format', format, ...reports.flatMap((file) => ['--report', file]), '--record', join(dir, 'recorded.json')])
    running.push(cli)
    const base = await waitForBaseUrl(cli)
    await repeatEverywhere(base)
    const origin = base.replace(/\/v1$/, '')
    const journal = await (await fetch(`${origin}/__proxy/journal`)).text()
    const violations = await (await fetch(`${origin}/__proxy/violations`)).text()
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
    expect(cli.stdout()).toContain(format === 'json' ? '"path":"/v1/pets/[redacted]"' : 'GET /v1/pets/[redacted] ')
    const files = Object.fromEntries(readdirSync(dir).map((file) => [file, readFileSync(join(dir, file), 'utf8')]))
    expect(Object.keys(files).sort()).toEqual(['proxy.json', 'proxy.xml', 'recorded.json'])
    expect(JSON.parse(journal)).toMatchObject({ entries: [{ path: '/v1/pets' }, {}, {}, {}, {}] })
    expectNone({ stdout: cli.stdout(), stderr: cli.stderr(), journal, violations, ...files })
  })
})
