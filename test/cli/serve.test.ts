import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { createApiClient } from '../support/api-client.js'
import { type CliProcess, runCli, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { expectError } from '../support/expectations.js'
import { shippedPets } from '../support/fixtures.js'

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

function serve(args: readonly string[], env: Record<string, string> = {}): CliProcess {
  const cli = spawnCli(['serve', ...args], env)
  running.push(cli)
  return cli
}

it('prints the base URL in a line a script can parse and serves the default fixture there', async () => {
  const cli = serve(['--port', '0'])
  const baseUrl = await waitForBaseUrl(cli)
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
  const api = createApiClient(baseUrl, 'any-token')
  const listed = await api.authed('/pets', { query: 'limit=100' })
  expect(listed.status).toBe(200)
  expect(listed.json).toEqual(shippedPets('default'))
})

it('shuts down gracefully on SIGTERM and on SIGINT, with exit code 0', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const cli = serve(['--port', '0'])
    const baseUrl = await waitForBaseUrl(cli)
    // An idle keep-alive connection must not hold the shutdown open.
    expect((await createApiClient(baseUrl, 'k').authed('/pets')).status).toBe(200)
    cli.child.kill(signal)
    expect(await cli.exited).toBe(0)
    expect(cli.stdout()).toContain('animals-mock stopped')
    expect(cli.stderr()).toBe('')
  }
})

it('reports a taken port in one clear line, exit code 2, no stack trace', async () => {
  const blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  const port = (blocker.address() as { port: number }).port
  try {
    const { code, stderr } = await runCli(['serve', '--port', String(port)])
    expect(code).toBe(2)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toContain(`port ${port}`)
    expect(stderr).toContain('already in use')
    expect(stderr).not.toMatch(/\n\s+at /)
  } finally {
    blocker.close()
  }
})

it('listens on port 4010 and host 127.0.0.1 by default', async () => {
  const cli = serve([])
  const outcome = await Promise.race([waitForBaseUrl(cli).then((url) => ({ url })), cli.exited.then(() => ({ url: '' }))])
  if (outcome.url === '') {
    // Something else holds 4010 on this machine; the refusal still names the default.
    expect(cli.stderr()).toContain('port 4010 on 127.0.0.1 is already in use')
  } else {
    expect(outcome.url).toBe('http://127.0.0.1:4010/v1')
  }
})

it('accepts the keys of repeated --api-key and of ANIMALS_MOCK_API_KEYS, and refuses others', async () => {
  const cli = serve(['--port', '0', '--api-key', 'cli-one', '--api-key', 'cli-two'], {
    ANIMALS_MOCK_API_KEYS: 'env-one, env-two',
  })
  const baseUrl = await waitForBaseUrl(cli)
  for (const key of ['cli-one', 'cli-two', 'env-one', 'env-two']) {
    expect((await createApiClient(baseUrl, key).authed('/pets')).status, key).toBe(200)
  }
  expectError(await createApiClient(baseUrl, 'someone-else').authed('/pets'), 401, 'unauthorized')
  expect(cli.stdout()).toContain('4 configured key(s)')
  expect(cli.stdout()).not.toContain('cli-one')
})

it('accepts any non-empty token when no key is configured, and says so', async () => {
  const cli = serve(['--port', '0'])
  const baseUrl = await waitForBaseUrl(cli)
  expect(cli.stdout()).toContain('any non-empty bearer token')
  expect((await createApiClient(baseUrl, 'whatever-1').authed('/pets')).status).toBe(200)
  expectError(await createApiClient(baseUrl).call('/pets'), 401, 'unauthorized')
  // Still RFC 6750's token68: one stray character before or after an accepted token is refused.
  for (const token of [',whatever-1', 'whatever-1,']) expectError(await createApiClient(baseUrl, token).authed('/pets'), 401, 'unauthorized')
})

it('shows every option with an example in --help', async () => {
  const { code, stdout } = await runCli(['serve', '--help'])
  expect(code).toBe(0)
  for (const option of ['--port', '--host', '--api-key', '--fixture', '--help', 'ANIMALS_MOCK_API_KEYS']) {
    expect(stdout).toContain(option)
  }
  expect(stdout).toMatch(/Examples:\n {2}animals-mock serve/)
  const top = await runCli(['--help'])
  expect(top.code).toBe(0)
  expect(top.stdout).toContain('serve')
})

it('refuses bad options in one line with exit code 2', async () => {
  for (const args of [
    ['serve', '--port', 'eighty'],
    ['serve', '--port', '70000'],
    ['serve', '--bogus'],
    ['serve', '--api-key', 'has space'],
    ['launch'],
  ]) {
    const { code, stderr } = await runCli(args)
    expect(code, args.join(' ')).toBe(2)
    expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
    expect(stderr).toMatch(/^animals-mock: /)
  }
})

it('refuses a bad fixture naming the file, the record and the field, and serves nothing', async () => {
  const file = join(tmpdir(), `bad-fixture-${process.pid}.json`)
  writeFileSync(file, JSON.stringify([{ id: 1, name: 'Rex', categoryId: 1 }, { id: 2, name: 'Tom', categoryId: 'two' }]))
  const { code, stderr, stdout } = await runCli(['serve', '--port', '0', '--fixture', file])
  expect(code).toBe(2)
  expect(stderr).toContain(file)
  expect(stderr).toContain('record 2')
  expect(stderr).toContain("'categoryId'")
  expect(stdout).not.toContain('listening')
  const missing = await runCli(['serve', '--port', '0', '--fixture', join(tmpdir(), 'no-such-fixture.json')])
  expect(missing.code).toBe(2)
  expect(missing.stderr).toContain('no-such-fixture.json: no such file')
})

it('lets Prefer: code=NNN pick an answer, and --no-prefer turns that off', async () => {
  const preferring = serve(['--port', '0'])
  const ignoring = serve(['--port', '0', '--no-prefer'])
  const headers = { authorization: 'Bearer any-key', prefer: 'code=503' }
  const [on, off] = await Promise.all([waitForBaseUrl(preferring), waitForBaseUrl(ignoring)])
  expectError(await createApiClient(on).call('/pets', { headers }), 503)
  expect((await createApiClient(off).call('/pets', { headers })).status).toBe(200)
})

it('ends at once on a second signal while the graceful stop waits for a request', async () => {
  for (const [first, second] of [['SIGTERM', 'SIGINT'], ['SIGINT', 'SIGTERM']] as const) {
    const cli = serve(['--port', '0', '--quiet', '--latency', '4000'])
    const baseUrl = await waitForBaseUrl(cli)
    // Held back 4 s by --latency: the graceful stop waits for it.
    const pending = createApiClient(baseUrl, 'k').authed('/pets').catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 200))
    cli.child.kill(first)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(cli.child.exitCode, `${first}: still stopping`).toBeNull()
    cli.child.kill(second)
    expect(await cli.exited, `${first} then ${second}`).toBe(second)
    await pending
  }
})

it('says at shutdown how many interactions it recorded and what it left out of the pact', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-pact-'))
  const cli = serve(['--port', '0', '--quiet', '--record-pact', dir, '--consumer', 'web'])
  const baseUrl = await waitForBaseUrl(cli)
  expect((await createApiClient(baseUrl, 'k').authed('/pets', { query: 'limit=2&page=3' })).status).toBe(200)
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(0)
  const file = join(dir, 'web-animals-service.json')
  expect(cli.stderr()).toBe(
    `animals-mock: wrote 1 interaction(s) to ${file}\nanimals-mock: not recorded: GET /v1/pets?limit=2&page=3: the spec defines no query parameter "page": left out of the pact\n`,
  )
  expect(existsSync(file)).toBe(true)
})

it('exits 1 when the recorded pact cannot be written at shutdown, saying why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-pact-'))
  writeFileSync(join(dir, 'a-file'), '')
  const cli = serve(['--port', '0', '--quiet', '--record-pact', join(dir, 'a-file', 'pacts'), '--consumer', 'web'])
  await waitForBaseUrl(cli)
  cli.child.kill('SIGINT')
  expect(await cli.exited).toBe(1)
  expect(cli.stderr()).toMatch(/^animals-mock: could not write the pact: E[A-Z]+: [^\n]+\n$/)
  expect(cli.stdout()).toMatch(/animals-mock stopped\n$/)
})

// Loaded before the program: on exit, says whether any module of Pact is in the CommonJS cache,
// where Node keeps every CommonJS package an ES module imported.
const PROBE = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module'
const cache = createRequire(process.execPath).cache
process.on('exit', () => {
  const pact = Object.keys(cache).some((path) => path.includes('@pact-foundation'))
  process.stderr.write(pact ? 'PACT LOADED\\n' : 'PACT NOT LOADED\\n')
})
`)}`

it('serves without loading Pact, which only verify pays for', async () => {
  const serve = spawnCli(['serve', '--port', '0'], { NODE_OPTIONS: `--import=${PROBE}` })
  await waitForBaseUrl(serve)
  serve.child.kill('SIGTERM')
  expect(await serve.exited).toBe(0)
  expect(serve.stderr()).toContain('PACT NOT LOADED')

  // The probe sees Pact when it is loaded: the module verify's worker imports.
  const verifier = fileURLToPath(new URL('../../dist/verify/provider.js', import.meta.url))
  const child = spawn(process.execPath, [`--import=${PROBE}`, verifier], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  await new Promise((resolve) => child.on('close', resolve))
  expect(stderr).toContain('PACT LOADED')
})

// Linux lets a process without CAP_NET_BIND_SERVICE bind only from this port up (1024 by default);
// elsewhere the test is skipped.
const unprivilegedPortStart = process.platform === 'linux' ? Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8')) : 0

it.skipIf(unprivilegedPortStart <= 80)('says in one line that it may not listen on a privileged port, exit code 2', async () => {
  const { code, stdout, stderr } = await runCli(['serve', '--port', '80', '--host', '127.0.0.1'], {}, { unprivileged: true })
  expect(code).toBe(2)
  expect(stdout).toBe('')
  expect(stderr).toBe('animals-mock: cannot listen: no permission to listen on 127.0.0.1:80\n')
})

// Ready means ready: a supervisor may stop the fake the moment it reads "listening on".
it('stops gracefully when SIGTERM comes within a millisecond of the ready line, 50 times in a row', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ready-'))
  const once = async (round: number): Promise<void> => {
    const file = join(dir, `state-${round}.json`)
    const cli = spawnCli(['serve', '--port', '0', '--quiet', '--state-file', file])
    cli.child.stdout?.on('data', (text: string) => {
      if (text.includes('animals-mock listening on')) cli.child.kill('SIGTERM')
    })
    expect(await cli.exited, `round ${round}: ${cli.stderr()}`).toBe(0)
    expect(cli.stdout()).toContain('animals-mock stopped')
    expect(existsSync(file), `round ${round}`).toBe(true)
  }
  for (let round = 0; round < 50; round += 5) await Promise.all([0, 1, 2, 3, 4].map((offset) => once(round + offset)))
}, 120_000)
