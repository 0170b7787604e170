import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { parseFixture } from '../../src/core/fixture.js'
import type { Pet } from '../../src/core/pets.js'
import { createApiClient } from '../support/api-client.js'
import { type CliProcess, runCli, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { shippedPets } from '../support/fixtures.js'

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

async function serve(args: readonly string[]) {
  const cli = spawnCli(['serve', '--port', '0', ...args])
  running.push(cli)
  const baseUrl = await waitForBaseUrl(cli)
  return { cli, api: createApiClient(baseUrl, 'k'), control: createApiClient(baseUrl.replace(/\/v1$/, '/__control')) }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`gave up waiting for ${what}`)
}

const fixture = shippedPets('default')
const stored = (file: string): Pet[] => {
  const pets = parseFixture(readFileSync(file, 'utf8'))
  if (!pets.ok) throw new Error(pets.error)
  return pets.value
}

it('keeps the animals in --state-file across restarts, written on an interval and on shutdown', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'state-')), 'state.json')
  const first = await serve(['--state-file', file, '--state-interval', '100'])
  await first.api.authed('/pets', { method: 'POST', body: { name: 'Persisted', categoryId: 2 } })
  await until(() => existsSync(file) && stored(file).length === fixture.length + 1, 'the interval write')
  await first.api.authed('/pets', { method: 'POST', body: { name: 'Last', categoryId: 3 } })
  first.cli.child.kill('SIGTERM')
  expect(await first.cli.exited).toBe(0)
  expect(stored(file).map((pet) => pet.name).slice(-2)).toEqual(['Persisted', 'Last'])
  const second = await serve(['--state-file', file])
  expect(second.cli.stdout()).toContain(`animals: ${fixture.length + 2} from state file`)
  const listed = (await second.api.authed('/pets', { query: 'limit=100' })).json as Pet[]
  expect(listed.slice(-2).map((pet) => pet.name)).toEqual(['Persisted', 'Last'])
  // Reset returns to the fixture, not to the state file.
  await second.control.call('/reset', { method: 'POST' })
  expect((await second.api.authed('/pets', { query: 'limit=100' })).json).toEqual(fixture)
})

it('leaves the previous state file whole and loadable when killed in the middle of a write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-kill-'))
  const file = join(dir, 'state.json')
  const { cli, api, control } = await serve(['--state-file', file, '--state-interval', '100'])
  await api.authed('/pets', { method: 'POST', body: { name: 'Before', categoryId: 1 } })
  await until(() => existsSync(file), 'the first write')
  const before = readFileSync(file, 'utf8')
  // A large change makes the next write long enough to be caught in the middle.
  expect((await control.call('/seed', { method: 'POST', body: { count: 400_000, seed: 1 } })).status).toBe(201)
  await until(() => readdirSync(dir).some((name) => name.endsWith('.tmp')), 'a write in progress')
  cli.child.kill('SIGKILL')
  await cli.exited
  expect(readFileSync(file, 'utf8')).toBe(before)
  expect(stored(file)).toHaveLength(fixture.length + 1)
  const restarted = await serve(['--state-file', file])
  expect(((await restarted.api.authed('/pets', { query: 'limit=100' })).json as Pet[]).at(-1)?.name).toBe('Before')
})

it('refuses to start from a corrupt state file and leaves it untouched', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'state-bad-')), 'state.json')
  writeFileSync(file, '[{"id":1,"name":"Half"')
  const { code, stderr } = await runCli(['serve', '--port', '0', '--state-file', file])
  expect(code).toBe(2)
  expect(stderr).toContain(`state file ${file} is corrupt`)
  expect(stderr.trim().split('\n')).toHaveLength(1)
  expect(readFileSync(file, 'utf8')).toBe('[{"id":1,"name":"Half"')
  const isolated = await runCli(['serve', '--port', '0', '--state-file', file, '--isolate'])
  expect(isolated.code).toBe(2)
  expect(isolated.stderr).toContain('--isolate')
})
