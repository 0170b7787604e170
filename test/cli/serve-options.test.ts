import { mkdtempSync, writeFileSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { isCliError } from '../../src/cli/cli-error.js'
import { API_KEYS_ENV, CONTROL_TOKEN_ENV, SERVE_HELP, serve, STORE_ENV, STORE_SECRET_ENV } from '../../src/cli/serve.js'
import { DEFAULT_BUDGET_LIMITS } from '../../src/service/budget.js'
import { rawRequest } from '../support/raw-http.js'
import { shippedPets } from '../support/fixtures.js'

// `serve` in this process, for the many options and their bounds: what a spawned CLI would print,
// without starting a process for each case. test/cli/serve.test.ts meets it as a process.

afterEach(() => {
  vi.restoreAllMocks()
})

type Printed = { readonly stdout: string; readonly stderr: string }
/** What `serve` printed; the refusal's line, or the base URL it listened on ('' when refused). */
type Outcome = Printed & { readonly refused: string | undefined; readonly url: string }

const text = (chunk: unknown): string => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'))

/** `promise`, or a failure of the test once `ms` have passed without it settling. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/**
 * Runs `serve` with `args`: a refusal is its line; otherwise, once its first line is out (the
 * banner), `meanwhile` gets the base URL, then SIGTERM stops it as a supervisor would.
 */
async function run(args: readonly string[], env: NodeJS.ProcessEnv = {}, meanwhile: (url: string) => Promise<void> = async () => {}): Promise<Outcome> {
  const stdout: string[] = []
  const stderr: string[] = []
  let printed: (first: string) => void = () => {}
  const banner = new Promise<string>((resolve) => (printed = resolve))
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout.push(text(chunk))
    printed(text(chunk))
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(text(chunk)), true))
  const served = serve(args, env)
  try {
    const first = await within(Promise.race([banner, served.then(() => undefined)]), 10_000, 'no banner')
    if (first === undefined) throw new Error(`serve ended without a banner: ${stdout.join('')}`)
    const url = /listening on (\S+)\n|"event":"listening","url":"([^"]+)"/.exec(first)
    try {
      await meanwhile(url?.[1] ?? url?.[2] ?? '')
    } finally {
      process.emit('SIGTERM', 'SIGTERM')
      await within(served, 10_000, 'not stopped by SIGTERM')
    }
    return { stdout: stdout.join(''), stderr: stderr.join(''), refused: undefined, url: url?.[1] ?? url?.[2] ?? '' }
  } catch (error) {
    if (!isCliError(error)) throw error
    expect(error.exitCode).toBe(2)
    return { stdout: stdout.join(''), stderr: stderr.join(''), refused: error.message, url: '' }
  } finally {
    vi.restoreAllMocks()
  }
}

async function refusalOf(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const outcome = await run(['--port', '0', ...args], env)
  if (outcome.refused === undefined) throw new Error(`accepted ${JSON.stringify(args)}`)
  expect(outcome.stdout).toBe('')
  return outcome.refused
}

// A later refusal proves the options before it were accepted, without starting a server.
const LATER = ['--log-format', 'xml']
const LATER_REFUSAL = '--log-format must be text or json, not "xml"'

const dir = mkdtempSync(join(tmpdir(), 'serve-options-'))
const fixture = shippedPets('default')

it('shows every option with --help or -h, and starts nothing', async () => {
  for (const flag of ['--help', '-h']) {
    const stdout: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(text(chunk)), true))
    await serve([flag, '--port', 'not-even-a-port'], {})
    vi.restoreAllMocks()
    expect(stdout.join('')).toBe(SERVE_HELP)
  }
  for (const option of ['--port <n>', '--host <address>', '--api-key <key>', '--fixture <name|file>', '--isolate', '--latency', '--max-animals <n>', '--state-file <path>', '--state-interval', '--store-idle-minutes', '--journal-size <n>', '--no-control', '--record-pact <dir> --consumer <name>', '--no-prefer', '--control-token <t>', '--control-cors', '--allowed-host', '--log-format <f>', '--quiet', '--store <redis-url>', '--store-timeout <ms>', '-h, --help']) {
    expect(SERVE_HELP, option).toContain(option)
  }
  expect(SERVE_HELP).toContain(`(default ${DEFAULT_BUDGET_LIMITS.maxAnimals})`)
  expect(SERVE_HELP).toContain('ANIMALS_MOCK_API_KEYS')
  expect(SERVE_HELP).toContain('ANIMALS_MOCK_CONTROL_TOKEN')
  expect(DEFAULT_BUDGET_LIMITS.maxAnimals).toBe(2_000_000)
  expect(SERVE_HELP).toContain('ANIMALS_MOCK_STORE')
  expect(SERVE_HELP).toContain('ANIMALS_MOCK_STORE_SECRET')
  expect([API_KEYS_ENV, CONTROL_TOKEN_ENV, STORE_ENV, STORE_SECRET_ENV]).toEqual(['ANIMALS_MOCK_API_KEYS', 'ANIMALS_MOCK_CONTROL_TOKEN', 'ANIMALS_MOCK_STORE', 'ANIMALS_MOCK_STORE_SECRET'])
})

it('takes a port from 0 to 65535 and refuses anything else, quoting it', async () => {
  for (const port of ['0', '65535', '00080', '4011']) expect(await refusalOf([`--port=${port}`, ...LATER]), port).toBe(LATER_REFUSAL)
  for (const port of ['65536', '99999', '123456', '', '-1', '8o', ' 80', '80 ', '1e3', '80.0', '0x50']) {
    expect(await refusalOf([`--port=${port}`]), port).toBe(`--port must be a number from 0 to 65535, not "${port}"`)
  }
})

it('takes the last of a repeated --port', async () => {
  expect(await refusalOf(['--port', '1', '--port', 'x'])).toBe('--port must be a number from 0 to 65535, not "x"')
  expect(await refusalOf(['--port', 'x', '--port', '0', ...LATER])).toBe(LATER_REFUSAL)
})

it('refuses an API key, from --api-key or ANIMALS_MOCK_API_KEYS, that cannot be a bearer token', async () => {
  const says = 'an API key may hold only letters, digits and - . _ ~ + / (then = padding)'
  for (const key of ['has space', 'k=x', 'ünï', 'a,b']) expect(await refusalOf(['--api-key', key]), key).toBe(says)
  expect(await refusalOf(['--api-key', 'good'], { ANIMALS_MOCK_API_KEYS: 'fine, not fine' })).toBe(says)
  expect(await refusalOf(['--api-key', ' padded ', '--api-key', 'k==', ...LATER], { ANIMALS_MOCK_API_KEYS: 'a,,b, c ,' })).toBe(LATER_REFUSAL)
})

it('refuses an empty control token, from the flag or the environment; the flag wins', async () => {
  const says = '--control-token must not be empty'
  expect(await refusalOf(['--control-token='])).toBe(says)
  expect(await refusalOf([], { ANIMALS_MOCK_CONTROL_TOKEN: '' })).toBe(says)
  expect(await refusalOf(['--control-token', 'set', ...LATER], { ANIMALS_MOCK_CONTROL_TOKEN: '' })).toBe(LATER_REFUSAL)
})

it('takes text or json for --log-format, nothing else', async () => {
  for (const format of ['xml', 'JSON', 'Text', '']) expect(await refusalOf([`--log-format=${format}`]), format).toBe(`--log-format must be text or json, not "${format}"`)
  for (const format of ['text', 'json']) expect(await refusalOf(['--log-format', format, '--max-animals', '0']), format).toContain('--max-animals must be')
})

it('takes a latency of 0 to 300000 ms, or a rising range within it', async () => {
  for (const latency of ['0', '250', '300000', '0-300000', '5-5', '100-900']) {
    expect(await refusalOf(['--latency', latency, '--max-animals', '0']), latency).toContain('--max-animals must be')
  }
  for (const latency of ['300001', '1-300001', '300001-300002', '900-100', '1234567', '1-1234567', '-5', '5-', 'a', '1-2-3', '', ' 5', '5 ', '1.5', '10 - 20']) {
    expect(await refusalOf([`--latency=${latency}`]), latency).toBe(`--latency must be milliseconds (250) or a range (100-900) up to 300000, not "${latency}"`)
  }
})

it('holds answers back by the --latency given: a fixed time or a range', async () => {
  const cases = [['250', { ms: 250 }], ['300000', { ms: 300_000 }], ['100-900', { minMs: 100, maxMs: 900 }], ['7-7', { minMs: 7, maxMs: 7 }]] as const
  for (const [latency, expected] of cases) {
    await run(['--port', '0', '--quiet', '--latency', latency], {}, async (url) => {
      const shown: unknown = await (await fetch(url.replace(/\/v1$/, '/__control/latency'))).json()
      expect(shown, latency).toEqual(expected)
    })
  }
})

it('bounds --max-animals, --state-interval, --store-idle-minutes and --journal-size, quoting what was typed', async () => {
  for (const [flag, min, max] of [['--max-animals', 1, 100_000_000], ['--state-interval', 100, 86_400_000], ['--store-idle-minutes', 1, 10_080], ['--journal-size', 0, 1000]] as const) {
    for (const value of [String(min), String(max)]) {
      expect(await refusalOf([flag, value, '--fixture', 'empty', ...LATER]), `${flag} ${value}`).toBe(LATER_REFUSAL)
    }
    for (const value of [String(min - 1), String(max + 1), '00000000000000001', '-1', '1.5', '1e3', '', ' 5', 'ten']) {
      expect(await refusalOf([`${flag}=${value}`]), `${flag} ${value}`).toBe(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`)
    }
  }
  // Sixteen digits are read, leading zeros and all; a seventeenth is refused above.
  expect(await refusalOf(['--state-interval', '0000000000000100', ...LATER])).toBe(LATER_REFUSAL)
})

it('takes web origins for --control-cors, and refuses anything more or less', async () => {
  for (const origin of ['http://localhost:5173', 'http://localhost:5173/', 'https://app.example']) {
    expect(await refusalOf(['--control-cors', origin, ...LATER]), origin).toBe(LATER_REFUSAL)
  }
  expect(await refusalOf(['--control-cors', 'evil.example'])).toBe('--control-cors needs a web origin such as http://localhost:5173, not "evil.example"')
  expect(await refusalOf(['--control-cors', 'evil example'])).toBe('--control-cors needs a web origin such as http://localhost:5173, not "evil example"')
  for (const origin of ['ftp://files.example', 'ws://localhost:5173', 'http://localhost:5173/app', 'http://localhost:5173?x=1', 'http://user@localhost:5173']) {
    expect(await refusalOf(['--control-cors', 'http://fine.example', '--control-cors', origin]), origin).toBe(
      `--control-cors needs a web origin such as http://localhost:5173 (scheme, host and port only), not "${origin}"`,
    )
  }
})

it('answers pages of an origin given with a trailing slash', async () => {
  await run(['--port', '0', '--quiet', '--control-cors', 'http://localhost:5173/'], {}, async (url) => {
    const read = await fetch(url.replace(/\/v1$/, '/__control/journal'), { headers: { origin: 'http://localhost:5173' } })
    expect(read.status).toBe(200)
    expect(read.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })
})

it('answers a Host named by --allowed-host, spaces around it ignored', async () => {
  await run(['--port', '0', '--quiet', '--allowed-host', ' qa-box.internal ', '--allowed-host', ' '], {}, async (url) => {
    const { origin, port } = new URL(url)
    const ask = (host: string) => rawRequest(origin, `GET /healthz HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: close\r\n\r\n`)
    expect((await ask('qa-box.internal')).status).toBe(200)
    expect((await ask('other.internal')).status).toBe(403)
  })
})

it('needs --record-pact and --consumer together, and a consumer that can name a file', async () => {
  const says = '--record-pact <dir> and --consumer <name> go together: the pact is for that consumer'
  expect(await refusalOf(['--record-pact', dir])).toBe(says)
  expect(await refusalOf(['--consumer', 'web'])).toBe(says)
  expect(await refusalOf(['--record-pact', dir, '--consumer', '../up'])).toBe(
    '--consumer: the consumer must be a name of letters, digits, ".", "_" and "-", not "../up"',
  )
  expect(await refusalOf(['--record-pact', dir, '--consumer', 'web', ...LATER])).toBe(LATER_REFUSAL)
})

it('refuses --state-file with --isolate, and each alone is fine', async () => {
  const state = join(dir, 'isolated-state.json')
  expect(await refusalOf(['--state-file', state, '--isolate'])).toBe(
    '--state-file cannot be used with --isolate: isolated stores are known by their keys, which are never written to disk; for a store per key that outlives restarts, use --isolate --store redis://…',
  )
  expect(await refusalOf(['--isolate', ...LATER])).toBe(LATER_REFUSAL)
})

it('takes a Redis URL for --store or ANIMALS_MOCK_STORE, refuses anything else without echoing a password, and --store-timeout from 50 to 60000', async () => {
  for (const url of ['redis://127.0.0.1:6379', 'redis://redis.internal:6380/0', 'rediss://user:pw@redis.example:6380/15']) {
    expect(await refusalOf(['--store', url, ...LATER]), url).toBe(LATER_REFUSAL)
    expect(await refusalOf(LATER, { [STORE_ENV]: url }), url).toBe(LATER_REFUSAL)
  }
  const expected = (shown: string) => `--store needs a Redis URL such as redis://127.0.0.1:6379 (or redis://host:port/db), not "${shown}"`
  expect(await refusalOf(['--store', 'http://127.0.0.1:6379'])).toBe(expected('http://127.0.0.1:6379/'))
  expect(await refusalOf(['--store', 'redis://h:1/db'])).toBe(expected('redis://h:1/db'))
  expect(await refusalOf(['--store', 'redis://h:1/100'])).toBe(expected('redis://h:1/100'))
  expect(await refusalOf(['--store', 'redis://:s3cret@h:1/x'])).toBe(`${expected('redis://h:1/x')} (password not shown)`)
  expect(await refusalOf(['--store', 'redis://u:s3cret@'])).toBe(expected('redis://***@'))
  expect(await refusalOf([], { [STORE_ENV]: 'not a url' })).toBe(expected('not a url'))
  // The flag comes before the variable.
  expect(await refusalOf(['--store', 'redis://h:1', ...LATER], { [STORE_ENV]: 'not a url' })).toBe(LATER_REFUSAL)
  for (const timeout of ['50', '60000']) expect(await refusalOf(['--store', 'redis://h:1', '--store-timeout', timeout, ...LATER])).toBe(LATER_REFUSAL)
  expect(await refusalOf(['--store', 'redis://h:1', '--store-timeout', '49'])).toMatch(/^--store-timeout /)
  expect(await refusalOf(['--store', 'redis://h:1', '--store-timeout', '60001'])).toMatch(/^--store-timeout /)
})

it('refuses beside --store what it does not keep in Redis yet and --state-file, takes each without it, and takes --latency with it', async () => {
  const state = join(dir, 'store-state.json')
  expect(await refusalOf(['--store', 'redis://127.0.0.1:6379', '--record-pact', dir, '--consumer', 'web'])).toBe(
    '--record-pact cannot be used with --store yet: only the animals, their ids, the stores of --isolate and the budget are kept in Redis so far',
  )
  expect(await refusalOf(['--store', 'redis://127.0.0.1:6379', '--state-file', state])).toBe(
    '--state-file and --store exclude each other: with --store the animals are kept in Redis, which outlives every replica',
  )
  for (const [option, ...rest] of [['--state-file', state], ['--record-pact', dir, '--consumer', 'web']] as const) {
    expect(await refusalOf([option, ...rest, ...LATER]), option).toBe(LATER_REFUSAL)
  }
  // --latency is fixed at start, the same on every replica: it goes with --store.
  expect(await refusalOf(['--store', 'redis://127.0.0.1:6379', '--latency', '10', ...LATER])).toBe(LATER_REFUSAL)
})

it('takes --isolate beside --store only with a random store secret (32 characters or more, 8 of them different) in ANIMALS_MOCK_STORE_SECRET, never echoing it', async () => {
  const needs = (said: string) =>
    `--isolate with --store needs ANIMALS_MOCK_STORE_SECRET${said}: at least 32 random characters, 8 or more of them different, and the same on every replica (e.g. export ANIMALS_MOCK_STORE_SECRET=$(openssl rand -hex 32)): each key's store in Redis is known by a keyed hash of the key, never the key`
  const short = 'abcdefgh'.repeat(4).slice(0, 31)
  const isolate = ['--store', 'redis://127.0.0.1:6379', '--isolate']
  expect(await refusalOf(isolate)).toBe(needs(''))
  expect(await refusalOf(isolate, { [STORE_SECRET_ENV]: short })).toBe(needs(' (the one given has 31 characters besides blanks)'))
  // Blanks are no randomness: 32 spaces, or 31 characters padded with one.
  expect(await refusalOf(isolate, { [STORE_SECRET_ENV]: ' '.repeat(32) })).toBe(needs(' (the one given has 0 characters besides blanks)'))
  expect(await refusalOf(isolate, { [STORE_SECRET_ENV]: `${short} ` })).toBe(needs(' (the one given has 31 characters besides blanks)'))
  // One character repeated, or seven, has the length and not the randomness; eight is enough.
  expect(await refusalOf(isolate, { [STORE_SECRET_ENV]: 'a'.repeat(64) })).toBe(needs(' (the one given has 1 different characters: it is not random)'))
  expect(await refusalOf(isolate, { [STORE_SECRET_ENV]: 'abcdefg'.repeat(5) })).toBe(needs(' (the one given has 7 different characters: it is not random)'))
  expect(await refusalOf([...isolate, ...LATER], { [STORE_SECRET_ENV]: 'abcdefgh'.repeat(4) })).toBe(LATER_REFUSAL)
  expect(await refusalOf([...isolate, ...LATER], { [STORE_SECRET_ENV]: `${short}y` })).toBe(LATER_REFUSAL)
  // Without --isolate the secret is not needed; with it and no --store it is not read.
  expect(await refusalOf(['--store', 'redis://127.0.0.1:6379', ...LATER])).toBe(LATER_REFUSAL)
  expect(await refusalOf(['--isolate', ...LATER], { [STORE_SECRET_ENV]: 'short' })).toBe(LATER_REFUSAL)
})

it('refuses a fixture that is not shipped or not valid, in its own words', async () => {
  expect(await refusalOf(['--fixture', 'nosuch'])).toBe(
    'no shipped fixture is named "nosuch": the shipped ones are default, empty, large; a file needs a path, e.g. ./nosuch.json',
  )
  const bad = join(dir, 'bad.json')
  writeFileSync(bad, '[{"id":1}]')
  expect(await refusalOf(['--fixture', bad])).toMatch(new RegExp(`^fixture ${bad}: record 1 \\(index 0\\): `))
})

it('refuses a state file that cannot be read as animals', async () => {
  const corrupt = join(dir, 'corrupt-state.json')
  writeFileSync(corrupt, '[{"id":1,')
  expect(await refusalOf(['--state-file', corrupt])).toMatch(new RegExp(`^state file ${corrupt} is corrupt \\(`))
})

it('takes --max-animals down to the size of the fixture, and no lower', async () => {
  expect(await refusalOf(['--max-animals', '29'])).toBe('--max-animals 29 is below the 30 animals of fixture default: raise it or pick a smaller fixture')
  expect(await refusalOf(['--max-animals', '9999', '--fixture', 'large'])).toBe(
    '--max-animals 9999 is below the 10000 animals of fixture large: raise it or pick a smaller fixture',
  )
  // At exactly the fixture's size it starts; what stops it here is the state file.
  const state = join(dir, 'thirty-one.json')
  writeFileSync(state, JSON.stringify([...fixture, { id: 31, name: 'One more', categoryId: 1 }]))
  expect(await refusalOf(['--max-animals', '30', '--state-file', state])).toBe(`state file ${state} holds 31 animals, more than --max-animals 30`)
  expect(await refusalOf(['--max-animals', '31', '--fixture', 'empty', '--state-file', state, ...LATER])).toBe(LATER_REFUSAL)
})

it('starts with a state file holding exactly --max-animals animals, and says where they came from', async () => {
  const state = join(dir, 'thirty-one-ok.json')
  writeFileSync(state, JSON.stringify([...fixture, { id: 31, name: 'One more', categoryId: 1 }]))
  const outcome = await run(['--port', '0', '--fixture', 'empty', '--max-animals', '31', '--state-file', state])
  expect(outcome.stdout).toContain(`  animals: 31 from state file ${state}\n`)
})

it('prints the banner a person reads, then "animals-mock stopped" on SIGTERM', async () => {
  const outcome = await run(['--port', '0'])
  const origin = outcome.url.replace(/\/v1$/, '')
  expect(outcome.stdout).toBe(
    [
      `animals-mock listening on ${origin}/v1`,
      '  animals: 30 from fixture default',
      '  accepts: any non-empty bearer token (Authorization: Bearer <key>)',
      `  docs:    ${origin}/docs`,
      `  dashboard: ${origin}/dashboard`,
      `  openapi: ${origin}/openapi.yaml`,
      `  control: ${origin}/__control`,
      'animals-mock stopped',
      '',
    ].join('\n'),
  )
  expect(outcome.stderr).toBe('')
  // Stopped means no longer listening.
  await expect(fetch(`${origin}/healthz`)).rejects.toThrow()
})

it('tells in the banner about isolation, keys, a control token and a control API removed', async () => {
  const isolated = await run(['--port', '0', '--isolate', '--fixture', 'empty', '--api-key', 'k1'], { ANIMALS_MOCK_API_KEYS: 'k2, ,k3' })
  expect(isolated.stdout).toContain('\n  animals: 0 from fixture empty, one store per key (--isolate)\n')
  expect(isolated.stdout).toContain('\n  accepts: 3 configured key(s) (Authorization: Bearer <key>)\n')
  const tokened = await run(['--port', '0', '--control-token', 'ctl-secret-1'])
  expect(tokened.stdout).toContain('/__control (token required)\n')
  expect(tokened.stdout + tokened.stderr).not.toContain('ctl-secret-1')
  const fromEnv = await run(['--port', '0'], { ANIMALS_MOCK_CONTROL_TOKEN: 'ctl-secret-2' })
  expect(fromEnv.stdout).toContain('/__control (token required)\n')
  expect(fromEnv.stdout + fromEnv.stderr).not.toContain('ctl-secret-2')
  const off = await run(['--port', '0', '--no-control', '--control-token', 'ctl-secret-3'])
  expect(off.stdout).toContain('\n  dashboard: disabled (--no-control)\n')
  expect(off.stdout).toContain('\n  control: disabled (--no-control)\n')
})

it('prints the banner and the stop as JSON objects under --log-format json', async () => {
  const outcome = await run(['--port', '0', '--log-format', 'json', '--control-token', 'ctl-secret-4', '--fixture', 'empty'])
  const origin = outcome.url.replace(/\/v1$/, '')
  const [banner, stopped, ...rest] = (outcome.stdout.trimEnd().split('\n')).map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(rest).toEqual([])
  expect(banner).toEqual({
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    event: 'listening',
    url: `${origin}/v1`,
    animals: 0,
    from: 'fixture empty',
    isolate: false,
    accepts: 'any non-empty bearer token',
    docs: `${origin}/docs`,
    dashboard: `${origin}/dashboard`,
    openapi: `${origin}/openapi.yaml`,
    control: `${origin}/__control`,
    controlToken: true,
  })
  expect(stopped).toEqual({ time: expect.stringMatching(/Z$/), event: 'stopped' })
  const off = await run(['--port', '0', '--log-format', 'json', '--no-control', '--isolate'])
  expect(JSON.parse(off.stdout.split('\n')[0] ?? '')).toMatchObject({ dashboard: null, control: null, controlToken: false, isolate: true, animals: 30 })
})

it('warns when bound beyond this machine, naming where and what is open', async () => {
  const warning = (where: string, control: boolean): string =>
    `animals-mock: warning: listening on ${where}, not only this machine: anyone who can reach it can use the fake${control ? ' and its control API (set --control-token)' : ''}; requests by name need --allowed-host\n`
  expect((await run(['--port', '0', '--host', '0.0.0.0'])).stderr).toBe(warning('every network interface', true))
  expect((await run(['--port', '0', '--host', '::'])).stderr).toBe(warning('every network interface', true))
  expect((await run(['--port', '0', '--host', '0.0.0.0', '--control-token', 't'])).stderr).toBe(warning('every network interface', false))
  expect((await run(['--port', '0', '--host', '0.0.0.0', '--no-control'])).stderr).toBe(warning('every network interface', false))
  const lan = Object.values(networkInterfaces()).flat().find((each) => each !== undefined && each.family === 'IPv4' && !each.internal)?.address
  if (lan !== undefined) expect((await run(['--port', '0', '--host', lan])).stderr).toBe(warning(lan, true))
  // A name is not an address: it is warned about before it fails to resolve.
  const named = await run(['--port', '0', '--host', '127.0.0.1.invalid'])
  expect(named.stderr).toBe(warning('127.0.0.1.invalid', true))
  expect(named.refused).toMatch(/^cannot listen: /)
})

it('binds loopback addresses without a warning', async () => {
  for (const host of ['127.0.0.1', '127.0.0.2', '127.10.200.3', 'localhost', '::1']) {
    const outcome = await run(['--port', '0', '--host', host])
    expect(outcome.refused, host).toBeUndefined()
    expect(outcome.stderr, host).toBe('')
  }
})
