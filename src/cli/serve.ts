import { JOURNAL_SIZE } from '../store/journal-entry.js'
import { createFake, type Fake } from '../create-fake.js'
import { CONTROL_BASE, type Control, type PactWritten } from '../fake/control.js'
import { coreOf } from '../fake/assemble-fake.js'
import { DEFAULT_FIXTURE } from '../disk/fixtures.js'
import { writePactFile } from '../disk/pact-writer.js'
import { createIdReservation, createStateWriter, prepareStateFile, readStateFile, StateFileError, type StateWriter } from '../disk/state-file.js'
import { createPactRecording } from '../recording/pact-recording.js'
import { DEFAULT_BUDGET_LIMITS } from '../service/budget.js'
import { definedOnly } from '../service/defined-only.js'
import { isLoopback } from '../service/loopback.js'
import { isFakeInputError } from '../service/errors.js'
import type { IdReservation } from '../memory/animals.js'
import type { Pet } from '../spec/animals-service.js'
import { describeKeys } from '../site/describe-keys.js'
import { PAGE_PATHS } from '../site/pages.js'
import { API_BASE } from '../site/site.js'
import type { Handler } from '../service/http.js'
import { CliError } from './cli-error.js'
import { createBatchedWriter, createRequestLog, useColour } from './request-log.js'
import { API_KEYS_ENV, CONTROL_TOKEN_ENV, parseServeArgs, type ServeConfig, STORE_ENV, STORE_SECRET_ENV } from './serve-options.js'
import { listenOrSay, stopSignal } from './stop-signal.js'
import { runCommand, URL_ENV } from './wrapped-command.js'
import { onStore } from './serve-store.js'
import { loadPets, type Running, siteOver } from './served.js'

export { API_KEYS_ENV, CONTROL_TOKEN_ENV, STORE_ENV, STORE_SECRET_ENV } from './serve-options.js'

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
  --journal-size <n>  how many requests each store's journal keeps, 0 to
                      1000; 0 keeps none (with --store, no write to Redis
                      per request)                                   (default ${JOURNAL_SIZE})
  --store <redis-url> keep the animals in Redis, shared by every replica given
                      the same URL, e.g. redis://127.0.0.1:6379/0; also read
                      from ${STORE_ENV}. With --isolate, every replica needs
                      the same ${STORE_SECRET_ENV}. Forced rules, latency
                      and the journal live there too; not with --record-pact
  --store-timeout <ms>
                      how long a request waits for the store before it is
                      answered 503                                   (default 2000)
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
  animals-mock serve --store redis://127.0.0.1:6379 --host 0.0.0.0
  animals-mock serve --port 0 --log-format json > requests.log
  animals-mock serve --port 0 --quiet -- npm run test:e2e
`

/** Runs `animals-mock serve`: its arguments read into a config, then the fake served until it stops. */
export async function serve(args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const config = parseServeArgs(args, env)
  if (config === 'help') process.stdout.write(SERVE_HELP)
  else await runServe(config, env)
}

/** Where the fake starts from: the fixture, and the state file's animals and id reservation when one is kept. */
type Start = { readonly pets: Pet[]; readonly saved?: Pet[]; readonly ids?: IdReservation }

/** The fake and what stands around it while it serves. */
type Served = { readonly fake: Fake; readonly site: Handler; readonly control?: Control; readonly writer?: StateWriter; readonly writePact?: () => Promise<PactWritten> }

/** Serves the fake as `config` says; resolves once it has stopped (a signal, or the wrapped command's end). */
export async function runServe(config: ServeConfig, env: NodeJS.ProcessEnv): Promise<void> {
  const running = config.store === undefined ? await inMemory(config) : await onStore(config, config.store)
  warnBeyondLoopback(config, running.control)
  const logOut = createBatchedWriter((text) => process.stdout.write(text))
  const onExchange = config.quiet ? undefined : createRequestLog({ format: config.logFormat, colour: useColour(process.stdout.isTTY, env), write: logOut.write })
  const server = await listenOrSay({ app: running.site, port: config.port, host: config.host, ...definedOnly({ onExchange }) })
  // Ready means ready: the handlers for a graceful stop are in place before the first line (a
  // wrapped command's, which pass the signals on to it, are set in the same turn as the line).
  const stopRequested = config.command === undefined ? stopSignal() : undefined
  const banner = bannerOf(config, running, server.url)
  process.stdout.write(config.logFormat === 'json' ? jsonEvent('listening', banner) : bannerText(banner))
  const commandExit = config.command === undefined ? await stopRequested?.then(() => 0) : await runCommand(config.command, { ...env, [URL_ENV]: banner.url })
  await server.close()
  await running.finish()
  logOut.flush()
  process.stdout.write(config.logFormat === 'json' ? jsonEvent('stopped', {}) : 'animals-mock stopped\n')
  // A wrapped command's failure decides the exit code first, as start-server-and-test has it.
  if (commandExit !== undefined && commandExit !== 0) process.exitCode = commandExit
}

/** The fake in this process's memory, from its fixture or its state file. */
async function inMemory(config: ServeConfig): Promise<Running> {
  const start = await loadStart(config)
  const { fake, site, control, writer, writePact } = assemble(config, start)
  return {
    site,
    ...definedOnly({ control }),
    keys: fake.keys,
    animals: fake.isolated ? start.pets.length : fake.store.size,
    from: start.saved === undefined ? `fixture ${config.fixture}` : `state file ${config.stateFile}`,
    async finish() {
      await stopWriter(writer)
      await writeRecordedPact(writePact)
    },
  }
}

/** Reads the fixture and, when one is kept, the state file; a file that cannot be used is one line (the fixture's, `loadPets`'). */
async function loadStart(config: ServeConfig): Promise<Start> {
  const { stateFile } = config
  try {
    const pets = await loadPets(config)
    if (stateFile === undefined) return { pets }
    await prepareStateFile(stateFile)
    const saved = await readStateFile(stateFile)
    if (saved !== undefined && saved.length > config.maxAnimals) {
      throw new CliError(`state file ${stateFile} holds ${saved.length} animals, more than --max-animals ${config.maxAnimals}`)
    }
    return { pets, ...definedOnly({ saved }), ids: createIdReservation(stateFile) }
  } catch (error) {
    if (error instanceof StateFileError) throw new CliError(error.message)
    throw error
  }
}

/** The fake from its start, with its state writer, its pact recording, its control API and the site over them. */
function assemble(config: ServeConfig, start: Start): Served {
  const { pets, saved, ids } = start
  const { keys, isolate, prefer, maxAnimals, storeIdleMs, journalSize, latency, stateFile, pact } = config
  const fake = createFake({ pets, keys, isolate, prefer, maxAnimals, storeIdleMs, journalSize, ...definedOnly({ ids, latency }) })
  if (saved !== undefined) {
    try {
      fake.load(saved)
    } catch (error) {
      if (isFakeInputError(error)) throw new CliError(`state file ${stateFile}: ${error.message}`)
      throw error
    }
  }
  const writer = stateFile === undefined ? undefined : createStateWriter({ path: stateFile, store: () => fake.store, intervalMs: config.stateIntervalMs, onError: reportStateWrite })
  const writePact = pact === undefined ? undefined : recordPact(fake, pact)
  const { site, control } = siteOver(coreOf(fake), config, definedOnly({ writePact }))
  return { fake, site, ...definedOnly({ control, writer, writePact }) }
}

/** Records the fake's traffic as a Pact contract for the consumer; resolves, when asked, with what it wrote. */
function recordPact(fake: Fake, pact: { readonly dir: string; readonly consumer: string }): () => Promise<PactWritten> {
  let recording
  try {
    recording = createPactRecording(pact.consumer)
  } catch (error) {
    throw new CliError(`--consumer: ${(error as Error).message}`)
  }
  fake.observe(recording.record)
  const recorded = recording
  return () => writePactFile(recorded, pact.dir)
}

function reportStateWrite(error: unknown): void {
  process.stderr.write(`animals-mock: could not write the state file: ${(error as Error).message}\n`)
}

/** The last write of the state file, on shutdown; a failure is said and makes the exit code 1. */
async function stopWriter(writer: StateWriter | undefined): Promise<void> {
  try {
    await writer?.stop()
  } catch (error) {
    reportStateWrite(error)
    process.exitCode = 1
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

function warnBeyondLoopback(config: ServeConfig, control: Control | undefined): void {
  const { host } = config
  if (isLoopback(host)) return
  const where = host === '0.0.0.0' || host === '::' || host === '' ? 'every network interface' : host
  const controlOpen = control !== undefined && config.controlToken === undefined
  process.stderr.write(
    `animals-mock: warning: listening on ${where}, not only this machine: anyone who can reach it can use the fake${controlOpen ? ' and its control API (set --control-token)' : ''}; requests by name need --allowed-host\n`,
  )
}

function bannerOf(config: ServeConfig, running: Running, origin: string): Banner {
  const { control } = running
  return {
    url: `${origin}${API_BASE}`,
    animals: running.animals,
    from: running.from,
    isolate: config.isolate,
    ...definedOnly({ store: running.store }),
    accepts: describeKeys(running.keys),
    docs: `${origin}${PAGE_PATHS.docs}`,
    dashboard: control === undefined ? null : `${origin}${PAGE_PATHS.dashboard}`,
    openapi: `${origin}${PAGE_PATHS.openapiYaml}`,
    control: control === undefined ? null : `${origin}${CONTROL_BASE}`,
    controlToken: config.controlToken !== undefined,
  }
}

type Banner = {
  readonly url: string
  readonly animals: number
  readonly from: string
  readonly isolate: boolean
  readonly store?: string
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
    (banner.store === undefined ? '' : `  store:   ${banner.store}, shared by every replica (--store)\n`) +
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
