import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { CliError } from '../../src/cli/cli-error.js'
import {
  BROKER_TOKEN_ENV,
  createScrubbedOutput,
  DEFAULT_TIMEOUT_MS,
  parseHttpUrl,
  parseRunId,
  parseTimeout,
  readVerifyKey,
  runScrubbed,
  VERIFY_KEY_ENV,
} from '../../src/cli/deployment-options.js'
import { createScrubber } from '../../src/service/credentials.js'

afterEach(() => {
  vi.restoreAllMocks()
})

/** The line a refusal prints, or a failure of the test when nothing is refused. */
function refusalOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(CliError)
    expect((error as CliError).exitCode).toBe(2)
    return (error as CliError).message
  }
  throw new Error('nothing was refused')
}

async function asyncRefusalOf(run: () => Promise<unknown>): Promise<CliError> {
  try {
    await run()
  } catch (error) {
    expect(error).toBeInstanceOf(CliError)
    return error as CliError
  }
  throw new Error('nothing was refused')
}

it('reads the key from ANIMALS_MOCK_VERIFY_KEY and the broker token from PACT_BROKER_TOKEN', () => {
  expect(VERIFY_KEY_ENV).toBe('ANIMALS_MOCK_VERIFY_KEY')
  expect(BROKER_TOKEN_ENV).toBe('PACT_BROKER_TOKEN')
  expect(readVerifyKey({ ANIMALS_MOCK_VERIFY_KEY: 'k-1._~+/==' })).toBe('k-1._~+/==')
})

it('refuses a missing, empty or blank key, saying where it is read from', () => {
  const says = 'ANIMALS_MOCK_VERIFY_KEY is not set: export the API key the deployment accepts (it is never read from the command line)'
  for (const env of [{}, { ANIMALS_MOCK_VERIFY_KEY: '' }, { ANIMALS_MOCK_VERIFY_KEY: '  \t' }]) {
    expect(refusalOf(() => readVerifyKey(env)), JSON.stringify(env)).toBe(says)
  }
})

it('refuses a key that cannot go in a bearer header, without showing it', () => {
  for (const key of ['has space', 'k=x', ' lead', 'ünï']) {
    const line = refusalOf(() => readVerifyKey({ ANIMALS_MOCK_VERIFY_KEY: key }))
    expect(line).toBe('ANIMALS_MOCK_VERIFY_KEY is not a usable bearer token: only letters, digits and - . _ ~ + / (then = padding)')
  }
})

it('takes an http or https URL and drops every trailing slash', () => {
  expect(parseHttpUrl('--base-url', 'https://staging.example/v1/')).toBe('https://staging.example/v1')
  expect(parseHttpUrl('--base-url', 'http://127.0.0.1:4010/v1')).toBe('http://127.0.0.1:4010/v1')
  expect(parseHttpUrl('--base-url', 'https://staging.example/v1///')).toBe('https://staging.example/v1')
  expect(parseHttpUrl('--broker-url', 'https://broker.example')).toBe('https://broker.example')
  expect(parseHttpUrl('--base-url', 'HTTPS://Staging.Example/v1')).toBe('https://staging.example/v1')
})

it('refuses a missing, malformed or non-http URL in one line naming the option', () => {
  expect(refusalOf(() => parseHttpUrl('--base-url', undefined))).toBe('--base-url is required, e.g. --base-url https://staging.example/v1')
  expect(refusalOf(() => parseHttpUrl('--target', undefined))).toBe('--target is required, e.g. --target https://staging.example/v1')
  expect(refusalOf(() => parseHttpUrl('--base-url', 'staging.example/v1'))).toBe(
    '--base-url must be an http or https URL such as https://staging.example/v1',
  )
  expect(refusalOf(() => parseHttpUrl('--fake-url', 'ftp://staging.example/v1'))).toBe('--fake-url must be an http or https URL, not ftp:')
  expect(refusalOf(() => parseHttpUrl('--base-url', 'file:///v1'))).toBe('--base-url must be an http or https URL, not file:')
})

it('refuses credentials, a query or a fragment in the URL, each on its own', () => {
  for (const url of ['http://user@staging.example/v1', 'http://:secret@staging.example/v1', 'http://user:secret@staging.example/v1']) {
    expect(refusalOf(() => parseHttpUrl('--base-url', url)), url).toBe('--base-url must not carry credentials')
  }
  for (const url of ['http://staging.example/v1?x=1', 'http://staging.example/v1#top']) {
    expect(refusalOf(() => parseHttpUrl('--broker-url', url)), url).toBe('--broker-url must not have a query or a fragment')
  }
})

it('gives up after 10 s unless --timeout says otherwise', () => {
  expect(DEFAULT_TIMEOUT_MS).toBe(10_000)
  expect(parseTimeout(undefined)).toBe(10_000)
})

it('takes --timeout from 1 to 600000 ms, six digits at most, and refuses anything else', () => {
  expect(parseTimeout('1')).toBe(1)
  expect(parseTimeout('600000')).toBe(600_000)
  expect(parseTimeout('000001')).toBe(1)
  expect(parseTimeout('2500')).toBe(2500)
  for (const text of ['0', '600001', '999999', '0000001', '1000000', '', '-1', '1.5', '1e3', ' 12', '12 ', 'a12', '12a', 'ten']) {
    expect(refusalOf(() => parseTimeout(text)), text).toBe(`--timeout must be milliseconds from 1 to 600000, not "${text}"`)
  }
})

it('takes a run id of up to 64 letters, digits, dots, dashes and underscores, and makes one otherwise', () => {
  expect(parseRunId('ci-42_a.b')).toBe('ci-42_a.b')
  expect(parseRunId('x'.repeat(64))).toBe('x'.repeat(64))
  expect(parseRunId(undefined)).toMatch(/^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}$/)
  for (const text of ['', 'x'.repeat(65), 'a b', 'a/b', '[x]']) {
    expect(refusalOf(() => parseRunId(text)), text).toBe('--run-id may hold 1 to 64 letters, digits, dots, dashes and underscores')
  }
})

it('scrubs what it prints on stdout and stderr', () => {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  const output = createScrubbedOutput(createScrubber(['s3cret']))
  output.out('key s3cret on stdout\n')
  output.err('key s3cret on stderr\n')
  expect(out.mock.calls).toEqual([['key [redacted] on stdout\n']])
  expect(err.mock.calls).toEqual([['key [redacted] on stderr\n']])
})

it('writes a report scrubbed, making its folders, and refuses in one line when it cannot', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scrubbed-report-'))
  const output = createScrubbedOutput(createScrubber(['s3cret']))
  const report = join(dir, 'ci', 'reports', 'r.json')
  await output.writeReport(report, '{"key":"s3cret"}\n')
  expect(readFileSync(report, 'utf8')).toBe('{"key":"[redacted]"}\n')
  writeFileSync(join(dir, 'a-file'), '')
  const blocked = join(dir, 'a-file', 's3cret', 'r.json')
  const refused = await asyncRefusalOf(() => output.writeReport(blocked, 'text'))
  expect(refused.message).toBe(`cannot write the report ${blocked}: ENOTDIR: not a directory, mkdir '${join(dir, 'a-file', '[redacted]')}'`)
  expect(refused.exitCode).toBe(2)
  const intoFolder = await asyncRefusalOf(() => output.writeReport(dir, 'text'))
  expect(intoFolder.message).toBe(`cannot write the report ${dir}: EISDIR: illegal operation on a directory, open '${dir}'`)
})

it('passes on the exit code of a command that ran', async () => {
  const scrub = createScrubber(['s3cret'])
  expect(await runScrubbed('verify', scrub, async () => 0)).toBe(0)
  expect(await runScrubbed('verify', scrub, async () => 1)).toBe(1)
})

it('scrubs a refusal and keeps its exit code', async () => {
  const scrub = createScrubber(['s3cret'])
  const refused = await asyncRefusalOf(() => runScrubbed('verify', scrub, async () => Promise.reject(new CliError('bad s3cret', 3))))
  expect(refused.message).toBe('bad [redacted]')
  expect(refused.exitCode).toBe(3)
})

it("passes Node's refusal of an option on as it is, scrubbed, with exit code 2", async () => {
  const scrub = createScrubber(['s3cret'])
  const parseError = Object.assign(new TypeError("Option '--x' does not take an argument s3cret"), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' })
  const refused = await asyncRefusalOf(() => runScrubbed('parity', scrub, async () => Promise.reject(parseError)))
  expect(refused.message).toBe("Option '--x' does not take an argument [redacted]")
  expect(refused.exitCode).toBe(2)
})

it('turns any other failure into one scrubbed line naming the command, never a stack', async () => {
  const scrub = createScrubber(['s3cret'])
  const failing = async (error: unknown): Promise<CliError> =>
    asyncRefusalOf(() => runScrubbed('verify', scrub, async () => Promise.reject(error)))
  const multiline = await failing(new Error('\n   \n  the socket s3cret closed  \n    at somewhere (file.js:1:1)'))
  expect(multiline.message).toBe('verify could not run: the socket [redacted] closed')
  expect(multiline.exitCode).toBe(2)
  expect((await failing(Object.assign(new Error('other code'), { code: 'ECONNRESET' }))).message).toBe('verify could not run: other code')
  expect((await failing(Object.assign(new Error('a number code'), { code: 42 }))).message).toBe('verify could not run: a number code')
  expect((await failing(Object.assign(new Error('not a parse error'), { code: 'ERR_PARSE_ARG' }))).message).toBe(
    'verify could not run: not a parse error',
  )
  expect((await failing('a string s3cret')).message).toBe('verify could not run: a string [redacted]')
  expect((await failing(null)).message).toBe('verify could not run: null')
  expect((await failing(new Error(''))).message).toBe('verify could not run: ')
  expect((await failing(new Error('  \n '))).message).toBe('verify could not run: ')
})
