import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createApiClient, createControlClient } from '../support/api-client.js'
import { type CliProcess, runCli, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { expectError } from '../support/expectations.js'
import { shippedPets } from '../support/fixtures.js'
import type { Pet } from '../../src/spec/animals-service.js'

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

async function serve(args: readonly string[], env: Record<string, string> = {}) {
  const cli = spawnCli(['serve', '--port', '0', ...args], env)
  running.push(cli)
  const baseUrl = await waitForBaseUrl(cli)
  const origin = baseUrl.replace(/\/v1$/, '')
  return { cli, origin, api: (key: string) => createApiClient(baseUrl, key), control: createControlClient(`${origin}/__control`) }
}

const tmp = mkdtempSync(join(tmpdir(), 'animals-mock-cli-'))

it('removes the control API with --no-control: its paths answer like any unknown path', async () => {
  const { origin, cli } = await serve(['--no-control'])
  const site = createApiClient(origin)
  const unknown = await site.call('/no-such-page')
  for (const [method, path] of [['GET', '/__control'], ['POST', '/__control/reset'], ['GET', '/__control/journal']] as const) {
    const result = await site.call(path, { method })
    expectError(result, 404, 'route_not_found')
    expect(result.status).toBe(unknown.status)
  }
  expect(cli.stdout()).toContain('control: disabled')
})

it('keeps as many requests in the journal as --journal-size says, the last ones; none with 0', async () => {
  for (const [size, kept] of [['0', []], ['1', ['/v1/pets/2']], ['2', ['/v1/pets/1', '/v1/pets/2']]] as const) {
    const { control, api } = await serve(['--journal-size', size])
    for (const id of [0, 1, 2]) await api('k').authed(`/pets/${id}`)
    const page = (await control.call('/journal')).json as { entries: { path: string }[]; total: number }
    expect(page.entries.map((entry) => entry.path), `--journal-size ${size}`).toEqual(kept)
  }
})

// The control routes are a table built when the module loads; a served fake is where a user meets it.
it('answers its summary and its forced rules as JSON over HTTP', async () => {
  const { control, api } = await serve([])
  expect((await api('k').authed('/pets/1')).status).toBe(200)
  const added = await control.call('/forced', { method: 'POST', body: { status: 503, times: 2 } })
  expect(added.status).toBe(201)
  const summary = await control.call('/')
  expect(summary.status).toBe(200)
  expect(summary.headers.get('content-type')).toMatch(/^application\/json/)
  expect(summary.json).toEqual({ animals: shippedPets('default').length, journal: 1, forcedRules: 1 })
  const forced = await control.call('/forced')
  expect(forced.headers.get('content-type')).toMatch(/^application\/json/)
  expect(forced.json).toMatchObject({ rules: [{ status: 503, times: 2 }] })
})

it('requires the control token when one is set, and never prints it', async () => {
  const token = 'ctl-token-6c1f0e'
  const { origin, cli } = await serve(['--control-token', token])
  const site = createApiClient(origin)
  expectError(await site.call('/__control/journal'), 401, 'unauthorized')
  expectError(await site.call('/__control/journal', { headers: { 'x-control-token': 'nope' } }), 401, 'unauthorized')
  expect((await site.call('/__control/journal', { headers: { 'x-control-token': token } })).status).toBe(200)
  const fromEnv = await serve([], { ANIMALS_MOCK_CONTROL_TOKEN: token })
  expectError(await createControlClient(fromEnv.origin).call('/__control/reset', { method: 'POST' }), 401, 'unauthorized')
  for (const output of [cli.stdout(), cli.stderr(), fromEnv.cli.stdout(), fromEnv.cli.stderr()]) expect(output).not.toContain(token)
  expect(cli.stdout()).toContain('token required')
})

it('under --isolate, concurrent clients with different keys never see each other\'s animals', async () => {
  const { api, control } = await serve(['--isolate'])
  const fixture = shippedPets('default')
  const keys = ['job-a', 'job-b', 'job-c']
  await Promise.all(
    keys.flatMap((key) =>
      Array.from({ length: 40 }, (_, i) => api(key).authed('/pets', { method: 'POST', body: { name: `${key}-${i}`, categoryId: 1 } })),
    ),
  )
  for (const key of keys) {
    const listed = (await api(key).authed('/pets', { query: 'limit=100' })).json as Pet[]
    expect(listed).toHaveLength(fixture.length + 40)
    const own = listed.slice(fixture.length).map((pet) => pet.name)
    expect(own.every((name) => name.startsWith(`${key}-`)), key).toBe(true)
    expect(new Set(listed.map((pet) => pet.id)).size).toBe(listed.length)
  }
  const fresh = (await api('job-d').authed('/pets', { query: 'limit=100' })).json
  expect(fresh).toEqual(fixture)
  // A control request names its store with its key; the others keep their animals.
  const reset = await control.call('/reset', { method: 'POST', headers: { authorization: 'Bearer job-a' } })
  expect(reset.json).toMatchObject({ animals: fixture.length })
  expect((await api('job-a').authed('/pets', { query: 'limit=100' })).json).toEqual(fixture)
  expect(((await api('job-b').authed('/pets', { query: 'limit=100' })).json as Pet[]).length).toBe(fixture.length + 40)
  const journal = (await control.call('/journal', { headers: { authorization: 'Bearer job-b' } })).json as {
    entries: { tenant: string }[]
  }
  expect(new Set(journal.entries.map((entry) => entry.tenant)).size).toBe(1)
  expect(journal.entries).toHaveLength(42) // 40 creations and 2 listings
  expectError(await control.call('/snapshot'), 400, 'store_not_named', '?store=<label>')
  // The dashboard names stores by label: listed without keys, readable by label.
  const stores = (await control.call('/stores')).json as { stores: { label: string; animals: number }[] }
  expect(stores.stores.map((store) => store.label).sort()).toEqual(['tenant-1', 'tenant-2', 'tenant-3', 'tenant-4'])
  expect(JSON.stringify(stores)).not.toContain('job-')
  const labelB = journal.entries[0]?.tenant ?? ''
  const page = (await control.call('/animals', { query: `store=${labelB}&offset=${fixture.length}&limit=100` })).json as { animals: Pet[] }
  expect(page.animals.every((pet) => pet.name.startsWith('job-b-'))).toBe(true)
  expectError(await control.call('/animals', { query: 'store=tenant-99' }), 400, 'invalid_parameter', 'tenant-99')
})

it('seeds byte-identical fixtures for the same seed, and serve --fixture loads them', async () => {
  const [first, second] = [join(tmp, 'a.json'), join(tmp, 'b.json')]
  for (const out of [first, second]) {
    const run = await runCli(['seed', '--count', '500', '--seed', '7', '--out', out])
    expect(run.code).toBe(0)
    expect(run.stderr).toContain(`wrote 500 animals to ${out}`)
  }
  const text = readFileSync(first, 'utf8')
  expect(readFileSync(second, 'utf8')).toBe(text)
  const other = await runCli(['seed', '--count', '500', '--seed', '8'])
  expect(other.stdout).not.toBe(text)
  const { api } = await serve(['--fixture', first])
  const listed = (await api('k').authed('/pets', { query: 'limit=100' })).json as Pet[]
  expect(listed).toEqual((JSON.parse(text) as Pet[]).slice(0, 100))
})

it('shows progress when seeding a large count', async () => {
  const run = await runCli(['seed', '--count', '200000', '--seed', '1', '--out', join(tmp, 'large.json')])
  expect(run.code).toBe(0)
  expect(run.stderr).toContain('generated 50000 of 200000')
  expect(run.stderr).toContain('generated 200000 of 200000')
})

it('serves the shipped empty and large fixtures by name', async () => {
  const empty = await serve(['--fixture', 'empty'])
  expect((await empty.api('k').authed('/pets')).json).toEqual([])
  const large = await serve(['--fixture', 'large'])
  expect(large.cli.stdout()).toContain('animals: 10000 from fixture large')
  expect((await large.api('k').authed('/pets/10000')).status).toBe(200)
})

it('applies --latency to every API answer', async () => {
  const { api, control } = await serve(['--latency', '200-300'])
  expect((await control.call('/latency')).json).toEqual({ minMs: 200, maxMs: 300 })
  const started = performance.now()
  expect((await api('k').authed('/pets')).status).toBe(200)
  expect(performance.now() - started).toBeGreaterThanOrEqual(190)
  const bad = await runCli(['serve', '--latency', 'slow'])
  expect(bad.code).toBe(2)
})

it('seeds with a status mix, and refuses a bad one in one line naming what is wrong', async () => {
  const sold = await runCli(['seed', '--count', '40', '--status-mix', 'sold=1'])
  expect(sold.code).toBe(0)
  expect(new Set((JSON.parse(sold.stdout) as Pet[]).map((pet) => pet.status))).toEqual(new Set(['sold']))
  const mixed = await runCli(['seed', '--count', '200', '--status-mix', 'sold=1,none=1'])
  expect(new Set((JSON.parse(mixed.stdout) as Pet[]).map((pet) => pet.status ?? 'none'))).toEqual(new Set(['sold', 'none']))
  for (const [mix, says] of [['lost=1', '"lost" is not one of'], ['sold=x', 'weight of sold'], ['sold=0', 'above 0']] as const) {
    const bad = await runCli(['seed', '--count', '3', '--status-mix', mix])
    expect(bad.code, mix).toBe(2)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
    expect(bad.stderr).toContain(says)
  }
})
