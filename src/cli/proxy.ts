import { writeFile } from 'node:fs/promises'
import type { ParseArgsConfig } from 'node:util'
import { toJUnitXml } from '../reports/junit-xml.js'
import { createHostPolicy } from '../site/site-guard.js'
import { API_BASE, createSite } from '../site/site.js'
import { createPages } from '../site/pages.js'
import { createProxyPages, PROXY_PATHS } from '../proxy/proxy-pages.js'
import { type AnimalRecording, createAnimalRecording } from '../proxy/animal-recording.js'
import { createForwarder, DEFAULT_MAX_ANSWER_BYTES, HELD_ANSWERS } from '../proxy/forward.js'
import { createJudge } from '../proxy/judging.js'
import { createProxyApi, type ProxiedExchange } from '../proxy/proxy-api.js'
import { createProxyJournal, type ProxyJournal, type ProxyJournalEntry, type ViolatingEntry } from '../proxy/proxy-journal.js'
import { definedOnly } from '../service/defined-only.js'
import type { Handler } from '../service/http.js'
import { CliError } from './cli-error.js'
import { parseHttpUrl, parseTimeout } from './deployment-options.js'
import { parseOptions, parsePort } from './parse-options.js'
import type { LogFormat } from './request-log.js'
import { parseLogFormat } from './serve-options.js'
import { listenOrSay, stopSignal } from './stop-signal.js'
import { runCommand, splitAtCommand, URL_ENV, type WrappedCommand } from './wrapped-command.js'
import { createBatchedWriter, createRequestLog, useColour } from './request-log.js'

export const PROXY_HELP = `Usage: animals-mock proxy --target <url> [options] [-- <command> [args]]

Forwards every /v1 request to the target (staging, say) unchanged, the client's own
Authorization included, returns its answer unchanged, and judges each answer by the
spec's rules (the ones parity uses): every violation is a VIOLATION line, a journal
entry, a row on the dashboard, and a case of the report. With a command after --,
runs it once the proxy is ready, with the proxy's API base URL in ${URL_ENV},
stops when it ends (writing the reports), and exits with the command's code when
it failed, else 1 for a violation under --fail-on-violation, else 0.

Options:
  --target <url>      the service's API base, with /v1 (required); nothing else is reached
  --port <n>          port to listen on; 0 picks a free one          (default 4010)
  --host <address>    address to bind                                (default 127.0.0.1)
  --timeout <ms>      the longest an exchange may take, the target's whole
                      answer read and judged; then 504              (default 10000)
  --max-answer-bytes <n>
                      the largest answer read from the target, as sent or
                      decoded; past it 502              (default ${DEFAULT_MAX_ANSWER_BYTES}, 8 MiB)
  --forward-cookies   pass the client's Cookie header on (off: cookies for
                      localhost belong to every local app)
  --report <file>     on shutdown, every violation: JUnit XML when the name ends in
                      .xml, JSON otherwise; repeatable
  --fail-on-violation exit 1 at shutdown when any answer broke the spec
  --record <file>     on shutdown, every animal seen in an answer (by id, latest wins)
                      as a fixture: animals-mock serve --fixture <file> loads it
  --allowed-host <name>
                      answer requests whose Host is this name; repeatable
  --log-format <f>    text or json lines                              (default text)
  --quiet             print no request lines (violations are still printed)
  -h, --help          show this help

Examples:
  animals-mock proxy --target https://staging.api.animals.example/v1
  animals-mock proxy --target https://staging.example/v1 --port 0 --fail-on-violation \\
    --report reports/proxy.xml --record qa-from-staging.json
  animals-mock proxy --target https://staging.example/v1 --port 0 --fail-on-violation \\
    --report reports/proxy.xml -- npm run test:e2e
`

const OPTIONS = {
  target: { type: 'string' },
  port: { type: 'string', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  timeout: { type: 'string' },
  'max-answer-bytes': { type: 'string', default: String(DEFAULT_MAX_ANSWER_BYTES) },
  'forward-cookies': { type: 'boolean', default: false },
  report: { type: 'string', multiple: true, default: [] },
  'fail-on-violation': { type: 'boolean', default: false },
  record: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true, default: [] },
  'log-format': { type: 'string', default: 'text' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options']

/** `animals-mock proxy` as its options ask for it, every value checked. */
export type ProxyConfig = {
  readonly target: string
  readonly port: number
  readonly host: string
  readonly timeoutMs: number
  readonly maxAnswerBytes: number
  readonly forwardCookies: boolean
  readonly reports: readonly string[]
  readonly failOnViolation: boolean
  readonly record?: string
  readonly allowedHosts: readonly string[]
  readonly logFormat: LogFormat
  readonly quiet: boolean
  readonly command?: WrappedCommand
}

/** Runs `animals-mock proxy`: its arguments read into a config, then the proxy served; resolves with the exit code. */
export async function proxy(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const config = parseProxyArgs(args)
  if (config !== 'help') return runProxy(config, env)
  process.stdout.write(PROXY_HELP)
  return 0
}

/** Reads `proxy`'s arguments into its config; `help` when `--help` was asked. */
export function parseProxyArgs(args: readonly string[]): ProxyConfig | 'help' {
  const { options, command } = splitAtCommand(args)
  const { values } = parseOptions('proxy', options, OPTIONS)
  if (values.help) return 'help'
  return {
    target: parseHttpUrl('--target', values.target),
    port: parsePort(values.port),
    host: values.host,
    timeoutMs: parseTimeout(values.timeout),
    maxAnswerBytes: parseMaxAnswerBytes(values['max-answer-bytes']),
    forwardCookies: values['forward-cookies'],
    reports: values.report,
    failOnViolation: values['fail-on-violation'],
    ...definedOnly({ record: values.record, command }),
    allowedHosts: values['allowed-host'],
    logFormat: parseLogFormat(values['log-format']),
    quiet: values.quiet,
  }
}

/** Serves the proxy as `config` says until it stops; resolves with the exit code. */
export async function runProxy(config: ProxyConfig, env: NodeJS.ProcessEnv): Promise<number> {
  const { target, logFormat: format } = config
  const journal = createProxyJournal()
  const animals = config.record === undefined ? undefined : createAnimalRecording()
  const out = createBatchedWriter((text) => process.stdout.write(text))
  const onExchange = (exchange: ProxiedExchange): void => {
    const entry = journal.add(exchange)
    animals?.add(exchange)
    for (const line of judgementLines(entry, format)) out.write(line)
  }
  const site = proxySite(config, journal, onExchange)
  const requestLog = config.quiet ? undefined : createRequestLog({ format, colour: useColour(process.stdout.isTTY, env), write: out.write })
  const server = await listenOrSay({ app: site, port: config.port, host: config.host, ...definedOnly({ onExchange: requestLog }) })
  const stopRequested = config.command === undefined ? stopSignal() : undefined
  const banner = { url: `${server.url}${API_BASE}`, target, dashboard: `${server.url}${PROXY_PATHS.dashboard}`, violations: `${server.url}${PROXY_PATHS.violations}` }
  // Under --log-format json stdout is JSON Lines only, as for serve: the banner is an object too.
  process.stdout.write(
    format === 'json'
      ? `${JSON.stringify({ time: new Date().toISOString(), event: 'listening', ...banner })}\n`
      : `animals-mock listening on ${banner.url}\n  proxy to: ${target} (every answer judged by the spec's rules)\n  dashboard: ${banner.dashboard}\n  violations: ${banner.violations}\n`,
  )
  const commandExit = config.command === undefined ? await stopRequested?.then(() => 0) : await runCommand(config.command, { ...env, [URL_ENV]: banner.url })
  await server.close()
  out.flush()
  const reported = await writeReports(config, journal)
  const recorded = animals === undefined || (await writeRecording(config, animals))
  const summary = { exchanges: journal.exchanges, violations: journal.violations }
  process.stdout.write(
    format === 'json'
      ? `${JSON.stringify({ time: new Date().toISOString(), event: 'stopped', ...summary })}\n`
      : `animals-mock stopped: ${summary.exchanges} exchanges, ${summary.violations} violations of the spec\n`,
  )
  // A wrapped command's failure decides first, as start-server-and-test has it; then the reports.
  if (commandExit !== undefined && commandExit !== 0) return commandExit
  if (!reported || !recorded) return 2
  return config.failOnViolation && journal.violations > 0 ? 1 : 0
}

/** The proxy's API over the forwarder and the judge, with its pages, behind the host policy. */
function proxySite(config: ProxyConfig, journal: ProxyJournal, onExchange: (exchange: ProxiedExchange) => void): Handler {
  const { target, maxAnswerBytes } = config
  const api = createProxyApi({
    target,
    timeoutMs: config.timeoutMs,
    forwardCookies: config.forwardCookies,
    send: createForwarder({ target, maxAnswerBytes, maxHeldBytes: HELD_ANSWERS * maxAnswerBytes }),
    judge: createJudge({ worker: new URL('../proxy/judge-worker.js', import.meta.url), inlineChars: INLINE_JUDGED_CHARS, concurrent: 2 }),
    onExchange,
  })
  const pages = createPages({ control: 'off' })
  for (const [path, page] of createProxyPages(journal, target)) pages.set(path, page)
  return createSite({ api, pages, hosts: createHostPolicy(config.allowedHosts) })
}

/** Every `--report`; false when one could not be written (each said in one line). */
async function writeReports(config: ProxyConfig, journal: ProxyJournal): Promise<boolean> {
  let written = true
  for (const file of config.reports) written = (await writeOrSay(file, reportText(file, config.target, journal.exchanges, journal.violating()))) && written
  return written
}

/** `--record`'s fixture, and what was left out of it; false when it could not be written. */
async function writeRecording(config: ProxyConfig, animals: AnimalRecording): Promise<boolean> {
  const { text, animals: count, skipped, withCredentials } = animals.fixture()
  for (const line of skipped) process.stderr.write(`animals-mock: not recorded, not a valid animal: ${line}\n`)
  const file = config.record ?? ''
  if (!(await writeOrSay(file, text))) return false
  const leftOut = withCredentials === 0 ? '' : `; ${withCredentials} left out: the latest answer showing them held a credential the request carried`
  process.stderr.write(`animals-mock: recorded ${count} animals to ${file}${leftOut}\n`)
  return true
}

/** Bodies up to this many characters are judged on the event loop (about 1 ms); larger ones in a worker. */
const INLINE_JUDGED_CHARS = 64 * 1024

function parseMaxAnswerBytes(text: string): number {
  const value = /^[0-9]{1,10}$/.test(text) ? Number(text) : Number.NaN
  if (!(value >= 1024 && value <= 1024 ** 3)) throw new CliError(`--max-answer-bytes must be a whole number of bytes from 1024 to 1073741824, not "${text}"`)
  return value
}

/** A VIOLATION line per violation, and a NOT JUDGED line for an answer passed on unjudged. */
function judgementLines(entry: ProxyJournalEntry, format: 'text' | 'json'): string[] {
  // Only an answer is judged: without one there is nothing to say.
  if (entry.status === null) return []
  const where = `${entry.method} ${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`
  const lines = entry.violations.map((violation) => {
    if (format === 'json') {
      return `${JSON.stringify({ time: entry.time, event: 'violation', seq: entry.seq, method: entry.method, path: entry.path, query: entry.query, status: entry.status, aspect: violation.aspect, reason: violation.reason })}\n`
    }
    return `VIOLATION ${where} ${entry.status} ${violation.aspect}: ${violation.reason}\n`
  })
  if (entry.unjudged === undefined) return lines
  const why = `the answer was passed on without its body judged: ${entry.unjudged}`
  const line =
    format === 'json'
      ? `${JSON.stringify({ time: entry.time, event: 'not-judged', seq: entry.seq, method: entry.method, path: entry.path, query: entry.query, status: entry.status, reason: why })}\n`
      : `NOT JUDGED ${where} ${entry.status}: ${why}\n`
  return [...lines, line]
}

function reportText(file: string, target: string, exchanges: number, entries: readonly ViolatingEntry[]): string {
  const violations = entries.flatMap((entry) => entry.violations.map((violation) => ({ ...entry, violations: undefined, ...violation })))
  if (!file.endsWith('.xml')) {
    return `${JSON.stringify({ target, exchanges, violations: violations.length, passed: violations.length === 0, entries: violations.map(({ violations: _, ...rest }) => rest) }, null, 2)}\n`
  }
  const cases = violations.map((violation) => ({
    name: `${violation.method} ${violation.path}${violation.query === '' ? '' : `?${violation.query}`} #${violation.seq}: ${violation.aspect}`,
    classname: 'animals-mock proxy',
    timeSeconds: violation.durationMs / 1000,
    failure: { message: violation.reason, type: 'violation', details: `${violation.status} at ${violation.time}` },
  }))
  const clean = { name: `${exchanges} exchanges, no violation`, classname: 'animals-mock proxy', timeSeconds: 0 }
  return toJUnitXml('animals-mock proxy', [{ name: target, cases: cases.length > 0 ? cases : [clean] }])
}

async function writeOrSay(file: string, text: string): Promise<boolean> {
  try {
    await writeFile(file, text)
    return true
  } catch (error) {
    process.stderr.write(`animals-mock: cannot write ${file}: ${(error as Error).message}\n`)
    return false
  }
}
