import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { nearestName, parseOptions } from '../../src/cli/parse-options.js'
import { runCli } from '../support/cli.js'

/** One line on stderr, exit code 2, no stack trace: what every refusal of the CLI looks like. */
async function refusal(args: readonly string[]): Promise<string> {
  const { code, stderr, stdout } = await runCli(args)
  expect(code).toBe(2)
  expect(stdout).toBe('')
  expect(stderr.trim().split('\n')).toHaveLength(1)
  expect(stderr).not.toMatch(/\n\s+at /)
  return stderr.trim()
}

it.each([
  [['serve', '--prot', '4011'], 'unknown option --prot; did you mean --port? (animals-mock serve --help lists every option)'],
  [['serve', '--fixtrue=large'], 'unknown option --fixtrue; did you mean --fixture?'],
  [['serve', '--api-keys', 'k'], 'unknown option --api-keys; did you mean --api-key?'],
  [['seed', '--cout', '5'], 'unknown option --cout; did you mean --count? (animals-mock seed --help lists every option)'],
  [['verify', '--base-ulr', 'http://x/v1'], 'unknown option --base-ulr; did you mean --base-url? (animals-mock verify --help'],
  [['parity', '--stirct'], 'unknown option --stirct; did you mean --strict? (animals-mock parity --help'],
])('names the nearest option for %j', async (args, expected) => {
  expect(await refusal(args)).toContain(`animals-mock: ${expected}`)
})

it('suggests nothing for an option that resembles none, and still points to --help', async () => {
  const line = await refusal(['serve', '--zzzzzzzz'])
  expect(line).toBe('animals-mock: unknown option --zzzzzzzz (animals-mock serve --help lists every option)')
})

it('names the nearest command, and points to the list of commands', async () => {
  expect(await refusal(['serv'])).toBe('animals-mock: unknown command "serv"; did you mean serve? (animals-mock --help lists the commands)')
  expect(await refusal(['verfiy'])).toContain('did you mean verify?')
  expect(await refusal(['--verison'])).toBe('animals-mock: unknown option "--verison"; did you mean --version? (animals-mock --help lists the commands)')
  expect(await refusal(['launch'])).toBe('animals-mock: unknown command "launch" (animals-mock --help lists the commands)')
})

it('says what to do with a stray argument or an option without its value', async () => {
  expect(await refusal(['serve', '4011'])).toBe('animals-mock: unexpected argument "4011": options start with -- (animals-mock serve --help lists every option)')
  expect(await refusal(['serve', '--port'])).toContain("Option '--port <value>' argument missing (animals-mock serve --help lists every option)")
})

it('lists the shipped fixtures for a fixture name that is not one', async () => {
  expect(await refusal(['serve', '--port', '0', '--fixture', 'nosuch'])).toBe(
    'animals-mock: no shipped fixture is named "nosuch": the shipped ones are default, empty, large; a file needs a path, e.g. ./nosuch.json',
  )
})

it('suggests --port 0 for a taken port', async () => {
  const blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  const { port } = blocker.address() as { port: number }
  try {
    expect(await refusal(['serve', '--port', String(port)])).toBe(
      `animals-mock: cannot listen: port ${port} on 127.0.0.1 is already in use; --port 0 picks a free one`,
    )
  } finally {
    blocker.close()
  }
})

it('says in one line that the folder of seed --out does not exist', async () => {
  const missing = join(mkdtempSync(join(tmpdir(), 'seed-out-')), 'no-such-folder')
  expect(await refusal(['seed', '--count', '3', '--out', join(missing, 'qa.json')])).toBe(
    `animals-mock: cannot write ${join(missing, 'qa.json')}: the folder ${missing} does not exist`,
  )
})

it('finds slips of the keys, not distant words', () => {
  const names = ['port', 'host', 'fixture', 'api-key', 'isolate', 'latency']
  expect(nearestName('prot', names)).toBe('port')
  expect(nearestName('hsot', names)).toBe('host')
  expect(nearestName('PORT', names)).toBe('port')
  expect(nearestName('isolated', names)).toBe('isolate')
  expect(nearestName('banana', names)).toBeUndefined()
  expect(nearestName('x', names)).toBeUndefined()
  // Two swapped pairs are two edits with transpositions counted as one, four without.
  expect(nearestName('ifxtuer', names)).toBe('fixture')
  // Exactly at the allowance: 2 edits for a short name, a third of a long one.
  expect(nearestName('pxrx', names)).toBe('port')
  expect(nearestName('pxrxx', names)).toBeUndefined()
  expect(nearestName('controltkn', ['control-token', 'port'])).toBe('control-token')
  expect(nearestName('controlxyzw', ['control-token', 'port'])).toBeUndefined()
})

// In process, for the cases a spawned CLI reaches too slowly to try each: the refusal's exact line.
const SERVE_OPTIONS = { port: { type: 'string' }, quiet: { type: 'boolean' } } as const
function refusalOf(args: string[]): string {
  try {
    parseOptions('serve', args, SERVE_OPTIONS)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error(`accepted ${JSON.stringify(args)}`)
}

it('names the option as typed, leading dashes and all, before matching it', () => {
  expect(refusalOf(['--pxrx', '1'])).toBe('unknown option --pxrx; did you mean --port? (animals-mock serve --help lists every option)')
  expect(refusalOf(['-x'])).toBe('unknown option -x (animals-mock serve --help lists every option)')
  expect(refusalOf(['--prot=1'])).toBe('unknown option --prot; did you mean --port? (animals-mock serve --help lists every option)')
})

it('puts every refusal of a value on one line', () => {
  expect(refusalOf(['--port', '--quiet'])).toBe(
    "Option '--port' argument is ambiguous. Did you forget to specify the option argument for '--port'? To specify an option argument starting with a dash use '--port=-XYZ' (animals-mock serve --help lists every option)",
  )
  expect(refusalOf(['--quiet=yes'])).toBe("Option '--quiet' does not take an argument (animals-mock serve --help lists every option)")
  expect(refusalOf(['--port'])).toBe("Option '--port <value>' argument missing (animals-mock serve --help lists every option)")
})
