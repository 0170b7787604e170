import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { CliError } from '../../src/cli/cli-error.js'
import { seed, SEED_HELP } from '../../src/cli/seed.js'
import type { Pet } from '../../src/spec/animals-service.js'
import { runCli } from '../support/cli.js'

afterEach(() => {
  vi.restoreAllMocks()
})

/** Runs `seed` in this process: what it printed on stdout and stderr. */
async function run(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  const stdout: string[] = []
  const stderr: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true))
  await seed(args)
  vi.restoreAllMocks()
  return { stdout: stdout.join(''), stderr: stderr.join('') }
}

async function refusalOf(args: readonly string[]): Promise<string> {
  try {
    await run(args)
  } catch (error) {
    vi.restoreAllMocks()
    expect(error).toBeInstanceOf(CliError)
    expect((error as CliError).exitCode).toBe(2)
    return (error as CliError).message
  }
  throw new Error(`accepted ${JSON.stringify(args)}`)
}

const petsOf = (text: string): Pet[] => JSON.parse(text) as Pet[]
const dir = mkdtempSync(join(tmpdir(), 'seed-cli-'))

it('shows its options and examples with --help or -h, and writes nothing else', async () => {
  for (const flag of ['--help', '-h']) {
    const { stdout, stderr } = await run([flag, '--count', '5'])
    expect(stdout).toBe(SEED_HELP)
    expect(stderr).toBe('')
  }
  expect(SEED_HELP).toMatch(/^Usage: animals-mock seed \[options\]\n/)
  for (const option of ['--count <n>', '--seed <n>', '--out <file>', '--first-id <id>', '--status-mix <mix>', '-h, --help']) {
    expect(SEED_HELP).toContain(option)
  }
  expect(SEED_HELP).toContain('animals-mock seed --count 500 --seed 7 --out qa.json')
})

it('writes 30 animals from id 1 to stdout by default, with seed 1', async () => {
  const { stdout, stderr } = await run([])
  const pets = petsOf(stdout)
  expect(pets).toHaveLength(30)
  expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
  expect(stdout).toBe((await run(['--seed', '1', '--count', '30', '--out', '-', '--first-id', '1'])).stdout)
  expect(stdout).not.toBe((await run(['--seed', '2'])).stdout)
  expect(stderr).toBe('')
})

it('counts from --first-id, past 2^53 exactly', async () => {
  const { stdout } = await run(['--count', '2', '--first-id', '9007199254740993'])
  expect(stdout).toMatch(/^\[\n\{"id":9007199254740993,/)
  expect(stdout).toContain('{"id":9007199254740994,')
  expect(await refusalOf(['--first-id', '9223372036854775808'])).toBe('--first-id must be a 64-bit integer')
  expect(await refusalOf(['--first-id', 'one'])).toBe('--first-id must be a 64-bit integer')
})

it('writes an empty fixture for --count 0, and takes every seed up to 2^32 - 1', async () => {
  expect((await run(['--count', '0'])).stdout).toBe('[]\n')
  expect(petsOf((await run(['--count', '1', '--seed', '4294967295'])).stdout)).toHaveLength(1)
  expect(petsOf((await run(['--count', '1', '--seed', '0'])).stdout)).toHaveLength(1)
})

it('refuses a count or seed that is not a whole number in range, naming the option and the limit', async () => {
  for (const text of ['10000001', '-1', '1.5', '1e3', '0x10', ' 5', '5 ', '', 'many', '12345678901']) {
    expect(await refusalOf([`--count=${text}`]), text).toBe(`--count must be a whole number from 0 to 10000000, not "${text}"`)
  }
  for (const text of ['4294967296', '-1', 'x']) {
    expect(await refusalOf([`--seed=${text}`]), text).toBe(`--seed must be a whole number from 0 to 4294967295, not "${text}"`)
  }
})

it('writes to --out, saying how many animals went where, and no progress for a small count', async () => {
  const out = join(dir, 'three.json')
  const { stdout, stderr } = await run(['--count', '3', '--out', out])
  expect(stdout).toBe('')
  expect(stderr).toBe(`wrote 3 animals to ${out}\n`)
  expect(readFileSync(out, 'utf8')).toBe((await run(['--count', '3'])).stdout)
})

it('refuses in one line to write where it cannot', async () => {
  expect(await refusalOf(['--count', '1', '--out', dir])).toBe(`cannot write ${dir}: EISDIR: illegal operation on a directory, open '${dir}'`)
})

it('reads a status mix with spaces around names and weights', async () => {
  const pets = petsOf((await run(['--count', '40', '--status-mix', ' sold = 1 , none=1'])).stdout)
  expect(new Set(pets.map((pet) => pet.status ?? 'none'))).toEqual(new Set(['sold', 'none']))
  const weighted = petsOf((await run(['--count', '60', '--status-mix', 'available=60,pending=1000000'])).stdout)
  expect(new Set(weighted.map((pet) => pet.status))).toContain('pending')
})

it('refuses a weight that is not a plain whole number', async () => {
  for (const mix of ['sold=+1', 'sold=1e3', 'sold=0x1', 'sold=1.0', 'sold', 'sold=12345678']) {
    expect(await refusalOf(['--status-mix', mix]), mix).toBe('--status-mix: the weight of sold must be a whole number from 0 to 1000000')
  }
})

it('shows no progress below 200000 animals, even past a step of it', async () => {
  const out = join(dir, 'fifty-thousand.json')
  const { stderr } = await run(['--count', '50000', '--out', out])
  expect(stderr).toBe(`wrote 50000 animals to ${out}\n`)
})

// The tests above run seed in this process, against the help text it imports; a user
// meets the built CLI's own copy.
it('prints its usage for seed --help from the built CLI, exit code 0, writing nothing else', async () => {
  const { code, stdout, stderr } = await runCli(['seed', '--help', '--count', '5'])
  expect(code).toBe(0)
  expect(stderr).toBe('')
  expect(stdout).toMatch(/^Usage: animals-mock seed \[options\]\n/)
  expect(stdout).toContain('--count <n>')
})
