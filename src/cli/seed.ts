import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { toFixtureText } from '../fake/fixture.js'
import { parseInt64Text } from '../service/int64.js'
import { DEFAULT_STATUS_MIX, parseStatusMix, type SeedOptions } from '../seed/status-mix.js'
import { CliError } from './cli-error.js'
import { parseOptions, wholeNumber } from './parse-options.js'
import { definedOnly } from '../service/defined-only.js'

export const SEED_HELP = `Usage: animals-mock seed [options]

Generates realistic animals with Faker and writes them as a fixture (a JSON array
of Pet). The same options give byte-identical output on any machine.

Options:
  --count <n>         how many animals                                (default 30)
  --seed <n>          the random seed                                 (default 1)
  --out <file>        where to write; "-" is stdout                   (default -)
  --first-id <id>     the id of the first animal                      (default 1)
  --status-mix <mix>  relative weights of each status; "none" is no status
                      (default ${Object.entries(DEFAULT_STATUS_MIX).map(([key, weight]) => `${key}=${weight}`).join(',')})
  -h, --help          show this help

Examples:
  animals-mock seed --count 500 --seed 7 --out qa.json
  animals-mock seed --count 100 --status-mix sold=1 --out sold.json
  animals-mock serve --fixture qa.json
`


/** Runs `animals-mock seed`. */
export async function seed(args: readonly string[]): Promise<void> {
  const { values } = parseOptions('seed', args, {
    count: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: '-' },
    'first-id': { type: 'string', default: '1' },
    'status-mix': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  })
  if (values.help) {
    process.stdout.write(SEED_HELP)
    return
  }
  const count = wholeNumber('--count', values.count, 0, 10_000_000)
  const seedValue = wholeNumber('--seed', values.seed, 0, 2 ** 32 - 1)
  const firstId = parseInt64Text(values['first-id'])
  if (firstId === undefined) throw new CliError('--first-id must be a 64-bit integer')
  const statusMix = values['status-mix'] === undefined ? undefined : parseMix(values['status-mix'])
  // Faker loads in ~150 ms, so only this command pays for it.
  const { generatePets } = await import('../seed/generate-pets.js')
  const showProgress = count >= 200_000
  const pets = generatePets({
    seed: seedValue,
    count,
    firstId,
    ...definedOnly({ statusMix }),
    ...(showProgress ? { onProgress: (done: number) => progress(`generated ${done} of ${count}`) } : {}),
  })
  const text = toFixtureText(pets)
  if (values.out === '-') {
    process.stdout.write(text)
    return
  }
  const folder = dirname(resolve(values.out))
  if (!existsSync(folder)) throw new CliError(`cannot write ${values.out}: the folder ${folder} does not exist`)
  try {
    await writeFile(values.out, text)
  } catch (error) {
    throw new CliError(`cannot write ${values.out}: ${(error as Error).message}`)
  }
  process.stderr.write(`wrote ${count} animals to ${values.out}\n`)
}

function progress(line: string): void {
  process.stderr.write(`${line}\n`)
}


/** `available=60,sold=20` into the weights the control API's `statusMix` takes, checked the same way. */
function parseMix(text: string): NonNullable<SeedOptions['statusMix']> {
  const weights: Record<string, number> = {}
  for (const part of text.split(',')) {
    const [key, weight] = part.split('=') as [string, string?]
    const digits = String(weight).trim() // without "=", "undefined": no number either
    weights[key.trim()] = /^[0-9]{1,7}$/.test(digits) ? Number(digits) : Number.NaN
  }
  const mix = parseStatusMix(weights)
  if (!mix.ok) throw new CliError(`--status-mix: ${mix.error}`)
  return mix.value
}
