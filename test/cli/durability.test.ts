import { execFileSync } from 'node:child_process'
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { parseFixture } from '../../src/fake/fixture.js'
import type { Pet } from '../../src/spec/animals-service.js'
import { createApiClient, createControlClient } from '../support/api-client.js'
import { type CliProcess, runCli, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { shippedPets } from '../support/fixtures.js'

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

async function serve(args: readonly string[], startMs?: number) {
  const cli = spawnCli(['serve', '--port', '0', ...args])
  running.push(cli)
  const baseUrl = await waitForBaseUrl(cli, startMs)
  return { cli, api: createApiClient(baseUrl, 'k'), control: createControlClient(baseUrl.replace(/\/v1$/, '/__control')) }
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
  // The seed pauses between chunks, so earlier writes may hold part of it: the file is always a
  // whole write, never a torn one.
  const kept = stored(file)
  expect(kept.length).toBeGreaterThanOrEqual(fixture.length + 1)
  expect(kept.slice(0, fixture.length + 1).map((pet) => pet.name).at(-1)).toBe('Before')
  expect(before.length).toBeGreaterThan(0)
  // The file may hold hundreds of thousands of animals: loading them in Stryker's instrumented
  // build takes longer than the usual 10 s allowed for a start.
  const restarted = await serve(['--state-file', file], 60_000)
  expect(((await restarted.api.authed('/pets', { query: 'limit=1' })).status)).toBe(200)
  expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
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

it('never gives an id answered 201 before a kill -9 to another animal after the restart (5 rounds under load)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-ids-'))
  const file = join(dir, 'state.json')
  // A long interval: the state file itself is written rarely, as after a crash it would be behind.
  const args = ['--state-file', file, '--state-interval', '600000', '--quiet']
  const acknowledged = new Set<number>()
  for (let round = 0; round < 5; round++) {
    const { cli, api } = await serve(args)
    const creations = Array.from({ length: 150 }, (_, i) =>
      api.authed('/pets', { method: 'POST', body: { name: `r${round}-${i}`, categoryId: 1 } }).then(
        (result) => (result.status === 201 ? (result.json as { id: number }).id : undefined),
        () => undefined,
      ),
    )
    // Killed while the creations are still coming in.
    await new Promise((resolve) => setTimeout(resolve, 15 + round * 10))
    cli.child.kill('SIGKILL')
    await cli.exited
    for (const id of await Promise.all(creations)) if (id !== undefined) {
      expect(acknowledged.has(id), `id ${id} acknowledged twice`).toBe(false)
      acknowledged.add(id)
    }
  }
  expect(acknowledged.size).toBeGreaterThan(0)
  const { api } = await serve(args)
  const next = (await api.authed('/pets', { method: 'POST', body: { name: 'After the crashes', categoryId: 1 } })).json as { id: number }
  expect(Math.max(...acknowledged)).toBeLessThan(next.id)
  expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
})

it('refuses to start when the state file cannot be written, in one line, and exits 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-where-'))
  writeFileSync(join(dir, 'a-file'), '')
  for (const [file, says] of [
    [join(dir, 'missing', 'state.json'), `the folder ${join(dir, 'missing')} does not exist`],
    [join(dir, 'a-file', 'state.json'), 'cannot write the state file'],
  ] as const) {
    const run = await runCli(['serve', '--port', '0', '--state-file', file])
    expect(run.code, file).toBe(2)
    expect(run.stderr).toContain(says)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stdout).toBe('')
  }
})

it('exits non-zero when the last write of the state file fails, saying so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-gone-'))
  const file = join(dir, 'state.json')
  const { cli, api } = await serve(['--state-file', file, '--state-interval', '600000'])
  expect((await api.authed('/pets', { method: 'POST', body: { name: 'Unsaved', categoryId: 1 } })).status).toBe(201)
  rmSync(dir, { recursive: true, force: true })
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(1)
  expect(cli.stderr()).toContain('could not write the state file')
})

it('writes through a temporary file with an unpredictable name, created anew, never an existing one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-tmp-'))
  const file = join(dir, 'state.json')
  // What the old, predictable name would have been: a link planted there must not be followed.
  const planted = join(dir, 'elsewhere.json')
  writeFileSync(planted, 'untouched')
  const { cli, api, control } = await serve(['--state-file', file, '--state-interval', '100'])
  symlinkSync(planted, `${file}.${cli.child.pid}.tmp`)
  await api.authed('/pets', { method: 'POST', body: { name: 'Linked', categoryId: 1 } })
  expect((await control.call('/seed', { method: 'POST', body: { count: 200_000, seed: 1 } })).status).toBe(201)
  const seen = new Set<string>()
  await until(() => {
    for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) seen.add(name)
    return [...seen].some((name) => /^state\.json\.[0-9a-f]{16}\.tmp$/.test(name))
  }, 'a temporary file')
  await until(() => existsSync(file) && stored(file).length > 200_000, 'the seeded state written')
  expect(readFileSync(planted, 'utf8')).toBe('untouched')
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(0)
})

/**
 * A 64 KiB tmpfs of its own, filled to the last byte: a full disk, as root may mount one. Where
 * mounting is not allowed the caller skips, saying so in one line.
 */
function fullDisk(): { readonly dir: string; release(): void } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'state-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' })
  } catch {
    rmSync(dir, { recursive: true, force: true })
    return undefined
  }
  return {
    dir,
    release() {
      execFileSync('umount', [dir])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function fill(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w')
  try {
    for (;;) writeSync(fd, Buffer.alloc(4096))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}

const disk = fullDisk()
if (disk === undefined) console.log('full-disk test skipped: mounting a tmpfs is not allowed here (it needs root)')
else disk.release()

it.skipIf(disk === undefined)('refuses a seed whole on a full disk, storing nothing, saying so truly, and leaves no temporary', async () => {
  const full = fullDisk()
  if (full === undefined) throw new Error('the tmpfs could be mounted a moment ago')
  try {
    const file = join(full.dir, 'state.json')
    const { cli, api, control } = await serve(['--state-file', file])
    // The first creation reserves a block of ids on disk; then the disk fills up.
    expect((await api.authed('/pets', { method: 'POST', body: { name: 'Before', categoryId: 1 } })).status).toBe(201)
    fill(full.dir)
    // More animals than the block still reserved: their ids need a write, which fails.
    const seeded = await control.call('/seed', { method: 'POST', body: { count: 20_000 } })
    expect(seeded.json).toEqual({
      code: 'store_full',
      message: 'The ids of 20000 new animals could not be reserved on disk (see the server log), so none was stored.',
      status: 507,
    })
    expect(((await control.call('/animals')).json as { total: number }).total).toBe(fixture.length + 1)
    expect(readdirSync(full.dir).sort()).toEqual(['filler', 'state.json.ids'])
    // The ids already reserved are still handed out: the store goes on.
    expect((await api.authed('/pets', { method: 'POST', body: { name: 'After', categoryId: 1 } })).status).toBe(201)
    cli.child.kill('SIGKILL')
    await cli.exited
  } finally {
    full.release()
  }
})

it('refuses, in one line, a state file in a folder it may write in but not list, and leaves the folder as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-unlisted-'))
  chmodSync(dir, 0o333)
  const file = join(dir, 'state.json')
  const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--state-file', file], {}, { unprivileged: true })
  expect(code).toBe(2)
  expect(stdout).toBe('')
  expect(stderr).toBe(
    `animals-mock: cannot clear what a stopped fake left of the state file ${file}: no permission to list ${dir} or remove its state.json.*.tmp files\n`,
  )
  chmodSync(dir, 0o700)
  expect(readdirSync(dir)).toEqual([])
})
