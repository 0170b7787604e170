import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createApiClient } from '../support/api-client.js'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { rawRequest } from '../support/raw-http.js'

// Edges of `serve` met as a process: an empty --allowed-host, a state file that can no longer be
// written, an empty --host, the pact's warnings at shutdown, and --control-cors origins.

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

async function serve(args: readonly string[]): Promise<{ cli: CliProcess; baseUrl: string }> {
  const cli = spawnCli(['serve', '--port', '0', '--quiet', ...args])
  running.push(cli)
  return { cli, baseUrl: await waitForBaseUrl(cli) }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`gave up waiting for ${what}`)
}

it('refuses an empty Host even when --allowed-host is given empty or blank (an unset variable)', async () => {
  const { baseUrl } = await serve(['--allowed-host', '', '--allowed-host', ' '])
  const { origin } = new URL(baseUrl)
  const ask = (host: string) => rawRequest(origin, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
  const empty = await ask('')
  expect(empty.status).toBe(403)
  expect(JSON.parse(empty.body)).toEqual({
    code: 'host_not_allowed',
    message: 'This Host is not allowed: use 127.0.0.1, localhost or a name given with --allowed-host.',
    status: 403,
  })
  expect((await ask('127.0.0.1')).status).toBe(200)
})

it('says on stderr when a periodic write of the state file fails', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-edges-state-'))
  const file = join(dir, 'state.json')
  const { cli, baseUrl } = await serve(['--state-file', file, '--state-interval', '100'])
  const api = createApiClient(baseUrl, 'k')
  // The first animal reserves a block of ids on disk; the second needs no more writes than the state file's.
  expect((await api.authed('/pets', { method: 'POST', body: { name: 'First', categoryId: 1 } })).status).toBe(201)
  // Once the first change is written, no write is under way until the next change.
  await until(() => existsSync(file), 'the first write')
  rmSync(dir, { recursive: true, force: true })
  expect((await api.authed('/pets', { method: 'POST', body: { name: 'Second', categoryId: 1 } })).status).toBe(201)
  await until(() => cli.stderr().includes('\n'), 'a line on stderr')
  expect(cli.stderr().split('\n')[0]).toMatch(
    new RegExp(`^animals-mock: could not write the state file: ENOENT: no such file or directory, open '${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.[0-9a-f]+\\.tmp'$`),
  )
})

it('warns that --host "" listens on every network interface', async () => {
  const { cli } = await serve(['--host', ''])
  await until(() => cli.stderr().endsWith('\n'), 'the warning')
  expect(cli.stderr()).toBe(
    'animals-mock: warning: listening on every network interface, not only this machine: anyone who can reach it can use the fake and its control API (set --control-token); requests by name need --allowed-host\n',
  )
})

it('lists what it left out of the pact one line after another at shutdown', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-edges-pact-'))
  const { cli, baseUrl } = await serve(['--record-pact', dir, '--consumer', 'web'])
  expect((await createApiClient(baseUrl, 'k').authed('/pets', { query: 'foo=1&bar=2' })).status).toBe(200)
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(0)
  expect(cli.stderr()).toBe(
    `animals-mock: wrote 1 interaction(s) to ${join(dir, 'web-animals-service.json')}\n` +
      'animals-mock: not recorded: GET /v1/pets?foo=1&bar=2: the spec defines no query parameter "bar": left out of the pact\n' +
      'animals-mock: not recorded: GET /v1/pets?foo=1&bar=2: the spec defines no query parameter "foo": left out of the pact\n',
  )
})

it('takes an https --control-cors origin, and an http one written with a trailing slash', async () => {
  const { cli, baseUrl } = await serve(['--control-cors', 'https://app.example.test', '--control-cors', 'http://localhost:5173/'])
  expect(cli.stderr()).toBe('')
  const journal = baseUrl.replace(/\/v1$/, '/__control/journal')
  for (const origin of ['https://app.example.test', 'http://localhost:5173']) {
    const read = await fetch(journal, { headers: { origin } })
    expect(read.status, origin).toBe(200)
    expect(read.headers.get('access-control-allow-origin'), origin).toBe(origin)
  }
})
