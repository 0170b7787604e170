import { afterEach, expect, it } from 'vitest'
import { createApiClient } from '../support/api-client.js'
import { type CliProcess, runCli, spawnCli, stopCli, waitForBaseUrl } from '../support/cli.js'
import { startIndependentService } from '../support/independent-service/service.js'

const KEY = 'log-secret-key-4b7e1d'
const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

async function serve(args: readonly string[]): Promise<{ cli: CliProcess; baseUrl: string }> {
  const cli = spawnCli(['serve', '--port', '0', '--api-key', KEY, ...args])
  running.push(cli)
  return { cli, baseUrl: await waitForBaseUrl(cli) }
}

/** The lines after the banner once `count` have arrived; each is printed when its request is over. */
async function requestLines(cli: CliProcess, count: number): Promise<string[]> {
  const lines = (): string[] => cli.stdout().split('\n').filter((line) => line !== '' && !line.startsWith(' ') && !line.startsWith('animals-mock '))
  while (lines().length < count) {
    if (cli.child.exitCode !== null) throw new Error(`serve ended: ${cli.stderr()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return lines()
}

async function traffic(baseUrl: string): Promise<void> {
  const api = createApiClient(baseUrl, KEY)
  expect((await api.authed('/pets', { query: `limit=2&api_key=${KEY}` })).status).toBe(200)
  expect((await api.authed('/pets', { method: 'POST', body: { name: 'Logged', categoryId: 1 } })).status).toBe(201)
  expect((await api.authed('/pets/999')).status).toBe(404)
}

it('prints the docs and dashboard addresses in the banner, under the line scripts parse', async () => {
  const { cli, baseUrl } = await serve([])
  const origin = baseUrl.replace(/\/v1$/, '')
  const banner = cli.stdout().split('\n')
  expect(banner[0]).toBe(`animals-mock listening on ${baseUrl}`)
  expect(banner).toContain(`  docs:    ${origin}/docs`)
  expect(banner).toContain(`  dashboard: ${origin}/dashboard`)
  expect(cli.stdout()).toContain('1 configured key(s)')
  const off = await serve(['--no-control'])
  expect(off.cli.stdout()).toContain('dashboard: disabled (--no-control)')
})

it('prints one readable line per request, without query, headers, key or colours when not a terminal', async () => {
  const { cli, baseUrl } = await serve([])
  await traffic(baseUrl)
  const lines = await requestLines(cli, 3)
  expect(lines).toHaveLength(3)
  const fields = lines.map((line) => /^\d\d:\d\d:\d\d (\S+) (\S+) (\d{3}|dropped) \d+\.\dms$/.exec(line)?.slice(1))
  expect(fields).toEqual([
    ['GET', '/v1/pets', '200'],
    ['POST', '/v1/pets', '201'],
    ['GET', '/v1/pets/999', '404'],
  ])
  expect(cli.stdout()).not.toContain(KEY)
  expect(cli.stdout()).not.toContain('\u001b[')
  expect(cli.stdout()).not.toContain('?')
})

it('prints JSON Lines only with --log-format json: the banner, one object per request, the stop', async () => {
  const { cli, baseUrl } = await serve(['--log-format', 'json', '--latency', '60'])
  await traffic(baseUrl)
  const requestRecords = (): Record<string, unknown>[] =>
    jsonLines(cli.stdout()).filter((record) => record.event === undefined)
  while (requestRecords().length < 3) {
    if (cli.child.exitCode !== null) throw new Error(`serve ended: ${cli.stderr()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(0)
  // What `jq` sees: every line of stdout is one JSON object, the first the banner, the last the stop.
  const records = jsonLines(cli.stdout())
  expect(records[0]).toMatchObject({ event: 'listening', url: baseUrl, animals: 30, from: 'fixture default' })
  expect(records.at(-1)).toMatchObject({ event: 'stopped' })
  const requests = records.slice(1, -1)
  expect(requests.map(({ method, path, status }) => [method, path, status])).toEqual([
    ['GET', '/v1/pets', 200],
    ['POST', '/v1/pets', 201],
    ['GET', '/v1/pets/999', 404],
  ])
  for (const record of requests) {
    expect(Object.keys(record).sort()).toEqual(['durationMs', 'method', 'path', 'status', 'time'])
    // Every answer is held back 60 ms (--latency): the duration includes it.
    expect(record.durationMs).toBeGreaterThanOrEqual(59)
    expect(record.durationMs).toBeLessThan(5000)
    expect(Number.isNaN(Date.parse(String(record.time)))).toBe(false)
  }
  expect(cli.stdout()).not.toContain(KEY)
})

/** Parses stdout as JSON Lines; throws on any line that is not one JSON object. */
function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const value: unknown = JSON.parse(line)
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${line}`)
      return value as Record<string, unknown>
    })
}

it('prints no request lines with --quiet, and refuses an unknown log format', async () => {
  const { cli, baseUrl } = await serve(['--quiet'])
  await traffic(baseUrl)
  // Once the server has stopped, every line it would print is out.
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(0)
  const lines = cli.stdout().trim().split('\n')
  expect(lines.filter((line) => !line.startsWith('  '))).toEqual([`animals-mock listening on ${baseUrl}`, 'animals-mock stopped'])
  const bad = await runCli(['serve', '--log-format', 'xml'])
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('--log-format must be text or json')
})

it('proxy prints JSON Lines only with --log-format json: the banner, each violation, the stop', async () => {
  const service = await startIndependentService({ keys: [KEY], seeded: 30, drift: 'createPet answers 200' })
  try {
    const cli = spawnCli(['proxy', '--target', service.baseUrl, '--port', '0', '--log-format', 'json'])
    running.push(cli)
    const base = await waitForBaseUrl(cli)
    await createApiClient(base, KEY).authed('/pets', { method: 'POST', body: { name: 'Rex', categoryId: 1 } })
    expect(await stopCli(cli)).toBe(0)
    const records = jsonLines(cli.stdout())
    expect(records[0]).toMatchObject({ event: 'listening', url: base, target: service.baseUrl })
    expect(records).toContainEqual(expect.objectContaining({ event: 'violation', method: 'POST', path: '/v1/pets', status: 200, aspect: 'status' }))
    expect(records.at(-1)).toMatchObject({ event: 'stopped', exchanges: 1, violations: 1 })
  } finally {
    await service.close()
  }
})
