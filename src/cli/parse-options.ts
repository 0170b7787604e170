import { type ParseArgsConfig, parseArgs } from 'node:util'
import { CliError } from './cli-error.js'
import { parseWholeNumber } from '../service/whole-number.js'

type Options = NonNullable<ParseArgsConfig['options']>
type ParsedOptions<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: false }>>

/**
 * `parseArgs` in strict mode, with Node's parse errors turned into one line that names the nearest
 * valid option and where the full list is: `unknown option --prot; did you mean --port? (animals-mock
 * serve --help lists every option)`.
 */
export function parseOptions<T extends Options>(command: string, args: readonly string[], options: T): ParsedOptions<T> {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false })
  } catch (error) {
    throw new CliError(describeParseError(command, error, Object.keys(options)))
  }
}

function describeParseError(command: string, error: unknown, names: readonly string[]): string {
  const help = `(animals-mock ${command} --help lists every option)`
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    // Node's message quotes the option as typed: "Unknown option '--prot'".
    const typed = /'([^']*)'/.exec(message)?.[1] ?? ''
    const bare = typed.replace(/^-+/, '').split('=')[0] as string
    const nearest = nearestName(bare, names)
    return `unknown option ${typed}${nearest === undefined ? '' : `; did you mean --${nearest}?`} ${help}`
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const typed = /'([^']*)'/.exec(message)?.[1] ?? ''
    return `unexpected argument "${typed}": options start with -- ${help}`
  }
  // Node's message for `--port --x` spans three lines; a refusal is one.
  return `${message.split('\n').join(' ').replace(/\.$/, '')} ${help}`
}

/** The name closest to `typed` by edit distance, when it is close enough to be a slip of the keys. */
export function nearestName(typed: string, names: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const name of names) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase())
    if (distance < bestDistance) [best, bestDistance] = [name, distance]
  }
  // A third of the name may be wrong (at least 2 edits): "prot" finds "port", "xyz" finds nothing.
  return bestDistance <= Math.max(2, Math.floor(typed.length / 3)) ? best : undefined
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]) // each row is filled in order below
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[]
    const above = rows[i - 1] as number[]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost)
      // a[-1] and b[-1] are undefined: in the first row and column no transposition matches.
      if (a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1)
      }
    }
  }
  return (rows[a.length] as number[])[b.length] as number
}

/** `--port`: 0 to 65535, 0 for a free one. */
export function parsePort(text: string): number {
  const port = parseWholeNumber(text, 0, 65535)
  if (port === undefined) throw new CliError(`--port must be a number from 0 to 65535, not "${text}"`)
  return port
}

/** A whole-number option from `min` to `max`, e.g. `--max-animals`. */
export function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const value = parseWholeNumber(text, min, max)
  if (value === undefined) throw new CliError(`${flag} must be a whole number from ${min} to ${max}, not "${text}"`)
  return value
}
