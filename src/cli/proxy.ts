import { writeFile } from 'node:fs/promises'
import type { ParseArgsConfig } from 'node:util'
import { toJUnitXml } from '../reports/junit-xml.js'
import { createHostPolicy } from '../site/site-guard.js'
import { API_BASE, createSite } from '../site/site.js'
import { createPages } from '../site/pages.js'
import { createProxyPages, PROXY_PATHS } from '../proxy/proxy-pages.js'
import { createAnimalRecording } from '../proxy/animal-recording.js'
import { createForwarder, DEFAULT_MAX_ANSWER_BYTES, HELD_ANSWERS } from '../proxy/forward.js'
import { createJudge } from '../proxy/judging.js'
import { createProxyApi } from '../proxy/proxy-api.js'
import { createProxyJournal, type ProxyJournalEntry } from '../proxy/proxy-journal.js'
import { CliError } from './cli-error.js'
import { parseHttpUrl, parseTimeout } from './deployment-options.js'
import { parseOptions } from './parse-options.js'
import { listenOrSay, stopSignal } from './stop-signal.js'
import { runCommand, splitAtCommand, URL_ENV } from './wrapped-command.js'
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
  // Stryker disable next-line ArrayDeclaration: a Host header is never "Stryker was here", so an extra allowed name of it lets nothing in
  'allowed-host': { type: 'string', multiple: true, default: [] },
  'log-format': { type: 'string', default: 'text' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options']

/** Runs `animals-mock proxy`; resolves with the exit code once stopped by SIGINT or SIGTERM. */
export async function proxy(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { options, command } = splitAtCommand(args)
  const { values } = parseOptions('proxy', options, OPTIONS)
  if (values.help) {
    process.stdout.write(PROXY_HELP)
    return 0
  }
  const target = parseHttpUrl('--target', values.target)
  const timeoutMs = parseTimeout(values.timeout)
  const maxAnswerBytes = parseMaxAnswerBytes(values['max-answer-bytes'])
  const port = /^[0-9]{1,5}$/.test(values.port) && Number(values.port) <= 65535 ? Number(values.port) : Number.NaN
  if (Number.isNaN(port)) throw new CliError(`--port must be a number from 0 to 65535, not "${values.port}"`)
  const format = values['log-format']
  if (format !== 'text' && format !== 'json') throw new CliError(`--log-format must be text or json, not "${format}"`)

  const journal = createProxyJournal()
  // Stryker disable next-line ConditionalExpression: without --record the animals gathered are never written (the shutdown checks it)
  const animals = values.record === undefined ? undefined : createAnimalRecording()
  const out = createBatchedWriter((text) => process.stdout.write(text))
  const api = createProxyApi({
    target,
    timeoutMs,
    forwardCookies: values['forward-cookies'],
    send: createForwarder({ target, maxAnswerBytes, maxHeldBytes: HELD_ANSWERS * maxAnswerBytes }),
    judge: createJudge({ worker: new URL('../proxy/judge-worker.js', import.meta.url), inlineChars: INLINE_JUDGED_CHARS, concurrent: 2 }),
    onExchange(exchange) {
      const entry = journal.add(exchange)
      animals?.add(exchange)
      for (const line of judgementLines(entry, format)) out.write(line)
    },
  })
  // Stryker disable next-line ObjectLiteral: createPages takes a control not given as 'off'
  const pages = createPages({ control: 'off' })
  for (const [path, page] of createProxyPages(journal, target)) pages.set(path, page)
  const site = createSite({ api, pages, hosts: createHostPolicy(values['allowed-host']) })
  const requestLog = values.quiet ? undefined : createRequestLog({ format, colour: useColour(process.stdout.isTTY, env), write: out.write })
  // Stryker disable next-line ConditionalExpression: an option given as undefined reads as one not given
  const server = await listenOrSay({ app: site, port, host: values.host, ...(requestLog === undefined ? {} : { onExchange: requestLog }) })
  const stopRequested = command === undefined ? stopSignal() : undefined
  const banner = { url: `${server.url}${API_BASE}`, target, dashboard: `${server.url}${PROXY_PATHS.dashboard}`, violations: `${server.url}${PROXY_PATHS.violations}` }
  // Under --log-format json stdout is JSON Lines only, as for serve: the banner is an object too.
  process.stdout.write(
    format === 'json'
      ? `${JSON.stringify({ time: new Date().toISOString(), event: 'listening', ...banner })}\n`
      : `animals-mock listening on ${banner.url}\n  proxy to: ${target} (every answer judged by the spec's rules)\n  dashboard: ${banner.dashboard}\n  violations: ${banner.violations}\n`,
  )
  const commandExit = command === undefined ? await stopRequested?.then(() => 0) : await runCommand(command, { ...env, [URL_ENV]: banner.url })
  await server.close()
  out.flush()
  let failed = false
  for (const file of values.report) failed = !(await writeOrSay(file, reportText(file, target, journal.exchanges, journal.violating()))) || failed
  // Stryker disable next-line LogicalOperator,ConditionalExpression: animals exists exactly when --record is given: either half decides
  if (animals !== undefined && values.record !== undefined) {
    const { text, animals: count, skipped, withCredentials } = animals.fixture()
    for (const line of skipped) process.stderr.write(`animals-mock: not recorded, not a valid animal: ${line}\n`)
    const leftOut = withCredentials === 0 ? '' : `; ${withCredentials} left out: the latest answer showing them held a credential the request carried`
    if (await writeOrSay(values.record, text)) process.stderr.write(`animals-mock: recorded ${count} animals to ${values.record}${leftOut}\n`)
    else failed = true
  }
  const summary = { exchanges: journal.exchanges, violations: journal.violations }
  process.stdout.write(
    format === 'json'
      ? `${JSON.stringify({ time: new Date().toISOString(), event: 'stopped', ...summary })}\n`
      : `animals-mock stopped: ${summary.exchanges} exchanges, ${summary.violations} violations of the spec\n`,
  )
  // A wrapped command's failure decides first, as start-server-and-test has it; then the reports.
  if (commandExit !== undefined && commandExit !== 0) return commandExit
  if (failed) return 2
  return values['fail-on-violation'] && journal.violations > 0 ? 1 : 0
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
  const where = `${entry.method} ${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`
  const lines = entry.violations.map((violation) => {
    if (format === 'json') {
      return `${JSON.stringify({ time: entry.time, event: 'violation', seq: entry.seq, method: entry.method, path: entry.path, query: entry.query, status: entry.status, aspect: violation.aspect, reason: violation.reason })}\n`
    }
    // Stryker does not read a directive between the branches of a ?: (measured), so a statement here.
    // Stryker disable next-line StringLiteral: only exchanges with an answer have violations, so the status is never null here
    return `VIOLATION ${where} ${entry.status ?? '-'} ${violation.aspect}: ${violation.reason}\n`
  })
  if (entry.unjudged === undefined) return lines
  const why = `the answer was passed on without its body judged: ${entry.unjudged}`
  const line =
    format === 'json'
      ? `${JSON.stringify({ time: entry.time, event: 'not-judged', seq: entry.seq, method: entry.method, path: entry.path, query: entry.query, status: entry.status, reason: why })}\n`
      : `NOT JUDGED ${where} ${entry.status}: ${why}\n`
  return [...lines, line]
}

function reportText(file: string, target: string, exchanges: number, entries: readonly ProxyJournalEntry[]): string {
  const violations = entries.flatMap((entry) => entry.violations.map((violation) => ({ ...entry, violations: undefined, ...violation })))
  if (!file.endsWith('.xml')) {
    return `${JSON.stringify({ target, exchanges, violations: violations.length, passed: violations.length === 0, entries: violations.map(({ violations: _, ...rest }) => rest) }, null, 2)}\n`
  }
  const cases = violations.map((violation) => ({
    name: `${violation.method} ${violation.path}${violation.query === '' ? '' : `?${violation.query}`} #${violation.seq}: ${violation.aspect}`,
    classname: 'animals-mock proxy',
    // Stryker disable next-line StringLiteral: only exchanges with an answer have violations, so the status is never null here
    failure: { message: violation.reason, type: 'violation', details: `${violation.status ?? '-'} at ${violation.time}` },
  }))
  return toJUnitXml('animals-mock proxy', [{ name: target, cases: cases.length > 0 ? cases : [{ name: `${exchanges} exchanges, no violation`, classname: 'animals-mock proxy' }] }])
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
