import { JOURNAL_SIZE } from '../store/journal-entry.js'
import type { ParseArgsConfig } from 'node:util'
import { MAX_DELAY_MS } from '../fake/latency.js'
import { DEFAULT_FIXTURE } from '../disk/fixtures.js'
import { isToken68 } from '../service/auth.js'
import { DEFAULT_BUDGET_LIMITS } from '../service/budget.js'
import { CliError } from './cli-error.js'
import { parseOptions, parsePort, wholeNumber } from './parse-options.js'
import type { LogFormat } from './request-log.js'
import { splitAtCommand, type WrappedCommand } from './wrapped-command.js'
import { definedOnly } from '../service/defined-only.js'

/** The environment variable with accepted keys, comma-separated, added to any `--api-key`. */
export const API_KEYS_ENV = 'ANIMALS_MOCK_API_KEYS'

/** The environment variable with the control token, used when `--control-token` is not given. */
export const CONTROL_TOKEN_ENV = 'ANIMALS_MOCK_CONTROL_TOKEN'

/** The environment variable with the store's URL, used when `--store` is not given (containers). */
export const STORE_ENV = 'ANIMALS_MOCK_STORE'

/**
 * The environment variable with the secret that `--isolate --store` makes each key's label with:
 * the same on every replica, never in Redis, never on a command line (where `ps` shows it).
 */
export const STORE_SECRET_ENV = 'ANIMALS_MOCK_STORE_SECRET'

/** The shortest store secret: 128 bits written as hex. */
const MIN_SECRET_CHARS = 32
/**
 * The fewest different characters a store secret holds: a blank one, or one character repeated
 * (`aaaa...`), has the length and none of the randomness. `openssl rand -hex 32` gives 16.
 */
const MIN_SECRET_DISTINCT = 8

/** A store shared by replicas: where it is, how long a request waits for it, and under --isolate the secret of its labels. */
export type StoreConfig = { readonly url: string; readonly timeoutMs: number; readonly secret?: string }

/** `animals-mock serve` as its options ask for it, every value checked. */
export type ServeConfig = {
  readonly port: number
  readonly host: string
  /** Accepted keys; none means any non-empty token. */
  readonly keys: readonly string[]
  readonly fixture: string
  readonly isolate: boolean
  readonly latency?: { readonly ms: number } | { readonly minMs: number; readonly maxMs: number }
  readonly maxAnimals: number
  readonly stateFile?: string
  readonly stateIntervalMs: number
  readonly storeIdleMs: number
  /** How many requests each store's journal keeps (`--journal-size`); 0 keeps none. */
  readonly journalSize: number
  readonly control: boolean
  readonly prefer: boolean
  readonly pact?: { readonly dir: string; readonly consumer: string }
  readonly controlToken?: string
  readonly controlCors: readonly string[]
  readonly allowedHosts: readonly string[]
  readonly logFormat: LogFormat
  readonly quiet: boolean
  /** A command to run once the fake is ready, after `--`. */
  readonly command?: WrappedCommand
  /** The animals in Redis, shared by every replica (`--store`); in this process's memory when absent. */
  readonly store?: StoreConfig
}

const OPTIONS = {
  port: { type: 'string', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  'api-key': { type: 'string', multiple: true, default: [] },
  fixture: { type: 'string', default: DEFAULT_FIXTURE },
  isolate: { type: 'boolean', default: false },
  latency: { type: 'string' },
  'max-animals': { type: 'string', default: String(DEFAULT_BUDGET_LIMITS.maxAnimals) },
  'state-file': { type: 'string' },
  'state-interval': { type: 'string', default: '5000' },
  'store-idle-minutes': { type: 'string', default: '30' },
  'journal-size': { type: 'string', default: String(JOURNAL_SIZE) },
  'no-control': { type: 'boolean', default: false },
  'no-prefer': { type: 'boolean', default: false },
  'record-pact': { type: 'string' },
  consumer: { type: 'string' },
  'control-token': { type: 'string' },
  'control-cors': { type: 'string', multiple: true, default: [] },
  'allowed-host': { type: 'string', multiple: true, default: [] },
  'log-format': { type: 'string', default: 'text' },
  quiet: { type: 'boolean', default: false },
  store: { type: 'string' },
  'store-timeout': { type: 'string', default: '2000' },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options']

/** Reads `serve`'s arguments and environment into its config; `help` when `--help` was asked. */
export function parseServeArgs(args: readonly string[], env: NodeJS.ProcessEnv): ServeConfig | 'help' {
  const { options, command } = splitAtCommand(args)
  const { values } = parseOptions('serve', options, OPTIONS)
  if (values.help) return 'help'
  const keys = [...values['api-key'], ...(env[API_KEYS_ENV] ?? '').split(',')].map((key) => key.trim()).filter((key) => key !== '')
  if (keys.some((key) => !isToken68(key))) throw new CliError('an API key may hold only letters, digits and - . _ ~ + / (then = padding)')
  const controlToken = values['control-token'] ?? env[CONTROL_TOKEN_ENV]
  if (controlToken === '') throw new CliError('--control-token must not be empty')
  const { 'record-pact': pactDir, consumer } = values
  if ((pactDir === undefined) !== (consumer === undefined)) {
    throw new CliError('--record-pact <dir> and --consumer <name> go together: the pact is for that consumer')
  }
  if (values['state-file'] !== undefined && values.isolate) {
    throw new CliError('--state-file cannot be used with --isolate: isolated stores are known by their keys, which are never written to disk; for a store per key that outlives restarts, use --isolate --store redis://…')
  }
  const store = parseStore(values.store ?? env[STORE_ENV], values['store-timeout'], values, env[STORE_SECRET_ENV])
  return {
    port: parsePort(values.port),
    host: values.host,
    keys,
    fixture: values.fixture,
    isolate: values.isolate,
    ...(values.latency === undefined ? {} : { latency: parseLatency(values.latency) }),
    maxAnimals: wholeNumber('--max-animals', values['max-animals'], 1, 100_000_000),
    ...(values['state-file'] === undefined ? {} : { stateFile: values['state-file'] }),
    stateIntervalMs: wholeNumber('--state-interval', values['state-interval'], 100, 86_400_000),
    storeIdleMs: wholeNumber('--store-idle-minutes', values['store-idle-minutes'], 1, 10_080) * 60_000,
    journalSize: wholeNumber('--journal-size', values['journal-size'], 0, JOURNAL_SIZE),
    control: !values['no-control'],
    prefer: !values['no-prefer'],
    ...(pactDir === undefined || consumer === undefined ? {} : { pact: { dir: pactDir, consumer } }),
    ...definedOnly({ controlToken }),
    controlCors: values['control-cors'].map(parseOrigin),
    allowedHosts: values['allowed-host'].map((name) => name.trim()).filter((name) => name !== ''),
    logFormat: parseLogFormat(values['log-format']),
    quiet: values.quiet,
    ...definedOnly({ command, store }),
  }
}

/** What `--store` does not hold yet (issue 49): refused beside it rather than kept in one replica's memory. */
const NOT_WITH_STORE = ['record-pact'] as const

/** `--store` (or its variable), `--store-timeout`, and the secret `--isolate` needs beside it; `undefined` without a store. */
function parseStore(url: string | undefined, timeout: string, values: Partial<Record<(typeof NOT_WITH_STORE)[number] | 'isolate' | 'state-file', unknown>>, secret: string | undefined): StoreConfig | undefined {
  if (url === undefined || url === '') return undefined
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new CliError(`--store needs a Redis URL such as redis://127.0.0.1:6379 (or redis://host:port/db), not "${url.replace(/\/\/[^@/]*@/, '//***@')}"`)
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.hostname === '' || !/^(\/[0-9]{0,2})?$/.test(parsed.pathname)) {
    throw new CliError(`--store needs a Redis URL such as redis://127.0.0.1:6379 (or redis://host:port/db), not "${parsed.protocol}//${parsed.host}${parsed.pathname}"` + (parsed.password === '' ? '' : ' (password not shown)'))
  }
  if (values['state-file'] !== undefined) throw new CliError('--state-file and --store exclude each other: with --store the animals are kept in Redis, which outlives every replica')
  const refused = NOT_WITH_STORE.find((name) => values[name] !== undefined && values[name] !== false)
  if (refused !== undefined) throw new CliError(`--${refused} cannot be used with --store yet: only the animals, their ids, the stores of --isolate and the budget are kept in Redis so far`)
  const timeoutMs = wholeNumber('--store-timeout', timeout, 50, 60_000)
  if (values.isolate !== true) return { url, timeoutMs }
  const trimmed = secret?.trim() ?? ''
  if (secret === undefined || trimmed.length < MIN_SECRET_CHARS || new Set(trimmed).size < MIN_SECRET_DISTINCT) {
    const said = secret === undefined ? '' : trimmed.length < MIN_SECRET_CHARS ? ` (the one given has ${trimmed.length} characters besides blanks)` : ` (the one given has ${new Set(trimmed).size} different characters: it is not random)`
    throw new CliError(
      `--isolate with --store needs ${STORE_SECRET_ENV}${said}: at least ${MIN_SECRET_CHARS} random characters, ${MIN_SECRET_DISTINCT} or more of them different, and the same on every replica (e.g. export ${STORE_SECRET_ENV}=$(openssl rand -hex 32)): each key's store in Redis is known by a keyed hash of the key, never the key`,
    )
  }
  return { url, timeoutMs, secret }
}

function parseOrigin(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new CliError(`--control-cors needs a web origin such as http://localhost:5173, not "${text}"`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== text.replace(/\/$/, '')) {
    throw new CliError(`--control-cors needs a web origin such as http://localhost:5173 (scheme, host and port only), not "${text}"`)
  }
  return url.origin
}

/** `--log-format`: text or json. */
export function parseLogFormat(text: string): LogFormat {
  if (text === 'text' || text === 'json') return text
  throw new CliError(`--log-format must be text or json, not "${text}"`)
}

function parseLatency(text: string): { ms: number } | { minMs: number; maxMs: number } {
  const match = /^([0-9]{1,6})(?:-([0-9]{1,6}))?$/.exec(text)
  const low = Number(match?.[1])
  const high = match?.[2] === undefined ? undefined : Number(match[2])
  if (match === null || low > MAX_DELAY_MS || (high !== undefined && (high < low || high > MAX_DELAY_MS))) {
    throw new CliError(`--latency must be milliseconds (250) or a range (100-900) up to ${MAX_DELAY_MS}, not "${text}"`)
  }
  return high === undefined ? { ms: low } : { minMs: low, maxMs: high }
}
