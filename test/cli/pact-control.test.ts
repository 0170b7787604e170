import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createControlClient } from '../support/api-client.js'
import { type CliProcess, runCli, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { escapedForRegExp, expectError } from '../support/expectations.js'

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

it('answers POST /__control/pact with 404 when it records no pact, saying how to record one', async () => {
  const cli = spawnCli(['serve', '--port', '0', '--quiet'])
  running.push(cli)
  const origin = (await waitForBaseUrl(cli)).replace(/\/v1$/, '')
  const written = await createControlClient(`${origin}/__control`).call('/pact', { method: 'POST' })
  expectError(written, 404, 'route_not_found')
  expect(written.json).toMatchObject({ message: 'No pact is being recorded: start the fake in memory with --record-pact <dir> --consumer <name> (not with --store, where each replica would record a part).' })
})

async function recording(dir: string) {
  const cli = spawnCli(['serve', '--port', '0', '--quiet', '--record-pact', dir, '--consumer', 'web-app'])
  running.push(cli)
  const base = await waitForBaseUrl(cli)
  return { cli, base, control: createControlClient(`${base.replace(/\/v1$/, '')}/__control`) }
}

it('names no credential-like query value in what it did not record: the control answer and the lines at shutdown', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pact-secrets-'))
  const { cli, base, control } = await recording(dir)
  const headers = { authorization: 'Bearer pact-key-1' }
  await fetch(`${base}/pets?api_key=QUERYSECRET-1&limit=5`, { headers })
  await fetch(`${base}/pets?access_token=QUERYSECRET-2`, { headers })
  const written = await control.call('/pact', { method: 'POST' })
  expect(written.status).toBe(200)
  const answer = JSON.stringify(written.json)
  expect(answer).toContain('the spec defines no query parameter \\"api_key\\"')
  expect(answer).toContain('api_key=%5Bredacted%5D')
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(0)
  expect(cli.stderr()).toContain('not recorded: GET /v1/pets?access_token=%5Bredacted%5D')
  for (const output of [answer, cli.stdout(), cli.stderr(), readFileSync(join(dir, 'web-app-animals-service.json'), 'utf8')]) {
    expect(output).not.toContain('QUERYSECRET')
  }
})

it('keeps the recording beside a pact file that is not JSON, answers 409 naming the file and the reason, and exits in one line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pact-broken-'))
  const file = join(dir, 'web-app-animals-service.json')
  writeFileSync(file, '{"interactions": [')
  const { cli, base, control } = await recording(dir)
  await fetch(`${base}/pets?limit=5`, { headers: { authorization: 'Bearer pact-key-1' } })
  const written = await control.call('/pact', { method: 'POST' })
  expectError(written, 409, 'pact_file_unusable')
  const message = (written.json as { message: string }).message
  expect(message).toMatch(new RegExp(`^The pact file ${escapedForRegExp(file)} is not JSON \\(Unexpected end of JSON input\\), so it was left as it is; the 1 interaction\\(s\\) recorded were written to ${escapedForRegExp(dir)}/web-app-animals-service\\.recorded-[-0-9TZ]+\\.json instead\\.$`))
  const kept = readdirSync(dir).filter((name) => name.includes('.recorded-'))
  expect(kept).toHaveLength(1)
  expect((JSON.parse(readFileSync(join(dir, kept[0] ?? ''), 'utf8')) as { interactions: unknown[] }).interactions).toHaveLength(1)
  expect(readFileSync(file, 'utf8')).toBe('{"interactions": [')
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(1)
  const lines = cli.stderr().trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(new RegExp(`^animals-mock: could not write the pact: The pact file ${escapedForRegExp(file)} is not JSON`))
})

it('takes over a lock left by a writer that no longer runs, at once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pact-stale-'))
  const lock = join(dir, 'web-app-animals-service.json.lock')
  mkdirSync(lock)
  writeFileSync(join(lock, 'holder'), String(spawnSync(process.execPath, ['-e', '']).pid))
  const { base, control } = await recording(dir)
  await fetch(`${base}/pets?limit=5`, { headers: { authorization: 'Bearer pact-key-1' } })
  const started = Date.now()
  const written = await control.call('/pact', { method: 'POST' })
  expect(written.status).toBe(200)
  expect(Date.now() - started).toBeLessThan(5_000)
  expect(readdirSync(dir)).toEqual(['web-app-animals-service.json'])
})

it('records from the server too: serve --record-pact writes on the control call and on shutdown', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'served-pact-'))
  const fake = spawnCli(['serve', '--port', '0', '--record-pact', dir, '--consumer', 'served-app', '--quiet'])
  running.push(fake)
  const baseUrl = await waitForBaseUrl(fake)
  const headers = { authorization: 'Bearer served-secret-key', 'content-type': 'application/json' }
  expect((await fetch(`${baseUrl}/pets?limit=3`, { headers })).status).toBe(200)
  const written = await fetch(`${baseUrl.replace(/\/v1$/, '')}/__control/pact`, { method: 'POST', headers: { 'content-type': 'application/json' } })
  expect(written.status).toBe(200)
  expect(await written.json()).toMatchObject({ interactions: 1, warnings: [] })
  expect((await fetch(`${baseUrl}/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":2}' })).status).toBe(201)
  fake.child.kill('SIGTERM')
  expect(await fake.exited).toBe(0)
  expect(fake.stderr()).toContain('animals-mock: wrote 2 interaction(s)')
  const text = readFileSync(join(dir, 'served-app-animals-service.json'), 'utf8')
  expect(text).not.toContain('served-secret-key')
  expect((JSON.parse(text) as { interactions: { description: string }[] }).interactions.map((each) => each.description)).toEqual([
    'a request to add an animal without a status',
    'a request to list animals with limit 3',
  ])
})

it('refuses --record-pact without --consumer, and a consumer name that is not a file name', async () => {
  const alone = await runCli(['serve', '--port', '0', '--record-pact', tmpdir()])
  expect(alone.code).toBe(2)
  expect(alone.stderr).toContain('--record-pact <dir> and --consumer <name> go together')
  const bad = await runCli(['serve', '--port', '0', '--record-pact', tmpdir(), '--consumer', '../up'])
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('--consumer: the consumer must be a name')
})
