import { CONTROL_BASE, createControl, type PactWritten } from '../fake/control.js'
import { createPactRecording, type PactRecording } from '../recording/pact-recording.js'
import { writePactFile } from '../files/pact-writer.js'
import { API_BASE, createSite } from '../site/site.js'
import { readControlOpenApiText } from '../contracts/openapi-files.js'
import { createFake } from '../fake.js'
import { DEFAULT_FIXTURE, FixtureError, loadFixture } from '../files/fixtures.js'
import { describeKeys } from '../site/describe-keys.js'
import { createPages, PAGE_PATHS } from '../site/pages.js'
import { createIdReservation, createStateWriter, prepareStateFile, readStateFile, StateFileError } from '../files/state-file.js'
import { createHostPolicy } from '../site/site-guard.js'
import { isToken68 } from '../service/auth.js'
import { isFakeInputError } from '../service/errors.js'
import { CliError } from './cli-error.js'
import { parseOptions } from './parse-options.js'
import { listenOrSay, stopSignal } from './stop-signal.js'
import { runCommand, splitAtCommand, URL_ENV } from './wrapped-command.js'
import { createBatchedWriter, createRequestLog, type LogFormat, useColour } from './request-log.js'
import { DEFAULT_BUDGET_LIMITS } from '../service/budget.js'
import { MAX_DELAY_MS } from '../fake/latency.js'

/** The environment variable with accepted keys, comma-separated, added to any `--api-key`. */
export const API_KEYS_ENV = 'ANIMALS_MOCK_API_KEYS'

/** The environment variable with the control token, used when `--control-token` is not given. */
export const CONTROL_TOKEN_ENV = 'ANIMALS_MOCK_CONTROL_TOKEN'


export const SERVE_HELP = `Usage: animals-mock serve [options] [-- <command> [args]]

Serves the fake animals service over HTTP, the API under /v1 and its controls
under ${CONTROL_BASE}. With a command after --, runs it once the fake is ready,
with the API base URL in ${URL_ENV}, stops when it ends, and exits with its code.

Options:
  --port <n>          port to listen on; 0 picks a free one          (default 4010)
  --host <address>    address to bind                                (default 127.0.0.1)
  --api-key <key>     an accepted bearer key; repeat for more. Also read,
                      comma-separated, from ${API_KEYS_ENV}.
                      With no key configured, any non-empty token is accepted.
  --fixture <name|file>
                      animals to start from: a shipped fixture name
                      (default, empty, large) or a JSON file         (default ${DEFAULT_FIXTURE})
  --isolate           each bearer key gets its own store, made from the
                      fixture on first use, so parallel jobs never meet
  --latency <ms|min-max>
                      hold every API answer back, e.g. 250 or 100-900
  --max-animals <n>   refuse to store more animals, answering 507    (default ${DEFAULT_BUDGET_LIMITS.maxAnimals})
  --state-file <path> keep the animals in this file: loaded at start, written
                      atomically on shutdown and every --state-interval ms
  --state-interval <ms>
                      how often to write the state file when it changed (default 5000)
  --store-idle-minutes <n>
                      under --isolate, drop a store unused this long  (default 30)
  --no-control        remove the control API (${CONTROL_BASE}) entirely
  --record-pact <dir> --consumer <name>
                      record the traffic as a Pact contract for that consumer,
                      written into <dir> on shutdown and on POST /__control/pact
  --no-prefer         ignore Prefer: code=NNN on requests (by default it picks
                      that request's answer: an error status, or the success)
  --control-token <t> require this token in X-Control-Token on control
                      requests; also read from ${CONTROL_TOKEN_ENV}. Without
                      one, --api-key protects the control API too.
  --control-cors <origin>
                      let pages of this web origin call the control API, e.g.
                      http://localhost:5173; repeatable (none by default)
  --allowed-host <name>
                      answer requests whose Host is this name (.example.test
                      for every name below it); repeatable. Addresses,
                      localhost and *.localhost are always answered.
  --log-format <f>    request lines as text (method path status time) or
                      json: then stdout is JSON Lines only, the banner an
                      object with "event":"listening" and "url"      (default text)
  --quiet             print no request lines (the banner stays)
  -h, --help          show this help

The first line printed is "animals-mock listening on <base URL>"; scripts can read
the base URL from it. A browser finds the API reference at /docs and a live
dashboard at /dashboard. Request lines never show the query, headers or body;
colours only on a terminal, and not with NO_COLOR set.

Examples:
  animals-mock serve
  animals-mock serve --port 0 --api-key secret-1 --api-key secret-2
  ${API_KEYS_ENV}=secret-1 animals-mock serve --host 0.0.0.0 --fixture large
  animals-mock serve --isolate --fixture qa.json --latency 100-400
  animals-mock serve --state-file .animals-state.json
  animals-mock serve --port 0 --log-format json > requests.log
  animals-mock serve --port 0 --quiet -- npm run test:e2e
`

/** Runs `animals-mock serve`; resolves once the server has stopped on SIGINT or SIGTERM. */
export async function serve(args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { options, command } = splitAtCommand(args)
  const { values } = parseOptions('serve', options, {
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
    'no-control': { type: 'boolean', default: false },
    'no-prefer': { type: 'boolean', default: false },
    'record-pact': { type: 'string' },
    consumer: { type: 'string' },
    'control-token': { type: 'string' },
    'control-cors': { type: 'string', multiple: true, default: [] },
    // Stryker disable next-line ArrayDeclaration: a default host named "Stryker was here" matches no Host a client sends
    'allowed-host': { type: 'string', multiple: true, default: [] },
    'log-format': { type: 'string', default: 'text' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  })
  if (values.help) {
    process.stdout.write(SERVE_HELP)
    return
  }
  const port = Number(values.port)
  if (!/^[0-9]{1,5}$/.test(values.port) || port > 65535) {
    throw new CliError(`--port must be a number from 0 to 65535, not "${values.port}"`)
  }
  const keys = [...values['api-key'], ...(env[API_KEYS_ENV] ?? '').split(',')].map((key) => key.trim())
  if (keys.some((key) => key !== '' && !isToken68(key))) {
    throw new CliError('an API key may hold only letters, digits and - . _ ~ + / (then = padding)')
  }
  const controlToken = values['control-token'] ?? env[CONTROL_TOKEN_ENV]
  if (controlToken === '') throw new CliError('--control-token must not be empty')
  const logFormat = parseLogFormat(values['log-format'])
  const latency = values.latency === undefined ? undefined : parseLatencyOption(values.latency)
  const maxAnimals = wholeNumber('--max-animals', values['max-animals'], 1, 100_000_000)
  const stateInterval = wholeNumber('--state-interval', values['state-interval'], 100, 86_400_000)
  const storeIdleMs = wholeNumber('--store-idle-minutes', values['store-idle-minutes'], 1, 10_080) * 60_000
  const controlCors = values['control-cors'].map(parseOrigin)
  const hosts = createHostPolicy(values['allowed-host'].map((name) => name.trim()).filter((name) => name !== ''))
  const pactDir = values['record-pact']
  if ((pactDir === undefined) !== (values.consumer === undefined)) {
    throw new CliError('--record-pact <dir> and --consumer <name> go together: the pact is for that consumer')
  }
  const recording = values.consumer === undefined ? undefined : recordingOf(values.consumer)
  const stateFile = values['state-file']
  if (stateFile !== undefined && values.isolate) {
    throw new CliError('--state-file cannot be used with --isolate: isolated stores are known by their keys, which are never written to disk')
  }
  let pets
  let saved
  let ids
  try {
    pets = await loadFixture(values.fixture)
    if (stateFile !== undefined) {
      await prepareStateFile(stateFile)
      saved = await readStateFile(stateFile)
      ids = createIdReservation(stateFile)
    }
  } catch (error) {
    if (error instanceof FixtureError || error instanceof StateFileError) throw new CliError(error.message)
    throw error
  }
  if (pets.length > maxAnimals) {
    throw new CliError(`--max-animals ${maxAnimals} is below the ${pets.length} animals of fixture ${values.fixture}: raise it or pick a smaller fixture`)
  }
  const fake = createFake({
    pets,
    keys,
    isolate: values.isolate,
    prefer: !values['no-prefer'],
    maxAnimals,
    storeIdleMs,
    // Stryker disable next-line ConditionalExpression: an option given as undefined reads as one not given
    ...(ids === undefined ? {} : { ids }),
    // Stryker disable next-line ConditionalExpression: an option given as undefined reads as one not given
    ...(latency === undefined ? {} : { latency }),
  })
  if (saved !== undefined) {
    if (saved.length > maxAnimals) throw new CliError(`state file ${stateFile} holds ${saved.length} animals, more than --max-animals ${maxAnimals}`)
    try {
      fake.load(saved)
    } catch (error) {
      if (isFakeInputError(error)) throw new CliError(`state file ${stateFile}: ${error.message}`)
      throw error
    }
  }
  const writer =
    stateFile === undefined
      ? undefined
      : createStateWriter({
          path: stateFile,
          store: () => fake.store,
          intervalMs: stateInterval,
          onError: (error) => process.stderr.write(`animals-mock: could not write the state file: ${(error as Error).message}\n`),
        })
  if (recording !== undefined) fake.observe(recording.record)
  // --consumer comes only with --record-pact (checked above).
  const writePact = recording === undefined ? undefined : () => writePactFile(recording, pactDir as string)
  const control = values['no-control']
    ? undefined
    : createControl({
        fake,
        // Stryker disable next-line ConditionalExpression: an option given as undefined reads as one not given
        ...(writePact === undefined ? {} : { writePact }),
        // Stryker disable next-line ConditionalExpression: an option given as undefined reads as one not given
        ...(controlToken === undefined ? {} : { token: controlToken }),
        document: readControlOpenApiText(),
      })
  // Stryker disable next-line StringLiteral: the pages tell only 'off' and 'token' apart; any other state reads as open
  const controlState = control === undefined ? 'off' : controlToken === undefined ? 'open' : 'token'
  const pages = createPages({ keys: fake.keys, control: controlState })
  // Stryker disable next-line ConditionalExpression: an option given as undefined reads as one not given
  const site = createSite({ api: fake, pages, hosts, controlCorsOrigins: controlCors, ...(control === undefined ? {} : { control }) })
  if (!isLoopback(values.host)) {
    const where = values.host === '0.0.0.0' || values.host === '::' || values.host === '' ? 'every network interface' : values.host
    process.stderr.write(
      `animals-mock: warning: listening on ${where}, not only this machine: anyone who can reach it can use the fake${control === undefined || controlToken !== undefined ? '' : ' and its control API (set --control-token)'}; requests by name need --allowed-host\n`,
    )
  }
  const logOut = createBatchedWriter((text) => process.stdout.write(text))
  const onExchange = values.quiet
    ? undefined
    : createRequestLog({ format: logFormat, colour: useColour(process.stdout.isTTY, env), write: logOut.write })
  // Stryker disable next-line ConditionalExpression: an option given as undefined reads as one not given
  const server = await listenOrSay({ app: site, port, host: values.host, ...(onExchange === undefined ? {} : { onExchange }) })
  // Ready means ready: the handlers for a graceful stop are in place before the first line (a
  // wrapped command's, which pass the signals on to it, are set in the same turn as the line).
  const stopRequested = command === undefined ? stopSignal() : undefined
  const banner = {
    url: `${server.url}${API_BASE}`,
    animals: fake.isolated ? pets.length : fake.store.size,
    from: saved === undefined ? `fixture ${values.fixture}` : `state file ${stateFile}`,
    isolate: values.isolate,
    accepts: describeKeys(fake.keys),
    docs: `${server.url}${PAGE_PATHS.docs}`,
    dashboard: control === undefined ? null : `${server.url}${PAGE_PATHS.dashboard}`,
    openapi: `${server.url}${PAGE_PATHS.openapiYaml}`,
    control: control === undefined ? null : `${server.url}${CONTROL_BASE}`,
    controlToken: controlToken !== undefined,
  }
  process.stdout.write(logFormat === 'json' ? jsonEvent('listening', banner) : bannerText(banner))
  const commandExit = command === undefined ? await stopRequested?.then(() => 0) : await runCommand(command, { ...env, [URL_ENV]: banner.url })
  await server.close()
  try {
    await writer?.stop()
  } catch (error) {
    process.stderr.write(`animals-mock: could not write the state file: ${(error as Error).message}\n`)
    process.exitCode = 1
  }
  await writeRecordedPact(writePact)
  logOut.flush()
  process.stdout.write(logFormat === 'json' ? jsonEvent('stopped', {}) : 'animals-mock stopped\n')
  // A wrapped command's failure decides the exit code first, as start-server-and-test has it.
  if (commandExit !== undefined && commandExit !== 0) process.exitCode = commandExit
}

function recordingOf(consumer: string): PactRecording {
  try {
    return createPactRecording(consumer)
  } catch (error) {
    throw new CliError(`--consumer: ${(error as Error).message}`)
  }
}

/** On shutdown: the recorded pact, and what was left out of it, on stderr. */
async function writeRecordedPact(writePact: (() => Promise<PactWritten>) | undefined): Promise<void> {
  if (writePact === undefined) return
  try {
    const { file, interactions, warnings } = await writePact()
    process.stderr.write(`animals-mock: wrote ${interactions} interaction(s) to ${file}\n${warnings.map((line) => `animals-mock: not recorded: ${line}\n`).join('')}`)
  } catch (error) {
    process.stderr.write(`animals-mock: could not write the pact: ${(error as Error).message}\n`)
    process.exitCode = 1
  }
}

type Banner = {
  readonly url: string
  readonly animals: number
  readonly from: string
  readonly isolate: boolean
  readonly accepts: string
  readonly docs: string
  readonly dashboard: string | null
  readonly openapi: string
  readonly control: string | null
  readonly controlToken: boolean
}

/** The banner for people; its first line is the one scripts read the base URL from. */
function bannerText(banner: Banner): string {
  return (
    `animals-mock listening on ${banner.url}\n` +
    `  animals: ${banner.animals} from ${banner.from}${banner.isolate ? ', one store per key (--isolate)' : ''}\n` +
    `  accepts: ${banner.accepts} (Authorization: Bearer <key>)\n` +
    `  docs:    ${banner.docs}\n` +
    `  dashboard: ${banner.dashboard ?? 'disabled (--no-control)'}\n` +
    `  openapi: ${banner.openapi}\n` +
    `  control: ${banner.control === null ? 'disabled (--no-control)' : `${banner.control}${banner.controlToken ? ' (token required)' : ''}`}\n`
  )
}

/** Under --log-format json stdout is JSON Lines only: the banner and the stop are objects too. */
function jsonEvent(event: 'listening' | 'stopped', fields: object): string {
  return `${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/.test(host)
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

function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const value = /^[0-9]{1,12}$/.test(text) ? Number(text) : Number.NaN
  if (!(value >= min && value <= max)) throw new CliError(`${flag} must be a whole number from ${min} to ${max}, not "${text}"`)
  return value
}

function parseLogFormat(text: string): LogFormat {
  if (text === 'text' || text === 'json') return text
  throw new CliError(`--log-format must be text or json, not "${text}"`)
}

function parseLatencyOption(text: string): { ms: number } | { minMs: number; maxMs: number } {
  const match = /^([0-9]{1,6})(?:-([0-9]{1,6}))?$/.exec(text)
  const [low, high] = [Number(match?.[1]), match?.[2] === undefined ? undefined : Number(match[2])]
  // Stryker disable next-line ConditionalExpression: with no range high is undefined, and undefined < low or > 300000 is false
  if (match === null || low > MAX_DELAY_MS || (high !== undefined && (high < low || high > MAX_DELAY_MS))) {
    throw new CliError(`--latency must be milliseconds (250) or a range (100-900) up to ${MAX_DELAY_MS}, not "${text}"`)
  }
  return high === undefined ? { ms: low } : { minMs: low, maxMs: high }
}
