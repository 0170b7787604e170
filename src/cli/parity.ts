import type { ParseArgsConfig } from 'node:util'
import { parseOptions } from './parse-options.js'
import { API_BASE, createSite } from '../site/site.js'
import { checkDeployment } from '../deployment/deployment-check.js'
import { PARITY_PROBES } from '../parity/probes.js'
import { PARALLEL_CREATIONS, PARITY_SCENARIOS } from '../parity/scenarios.js'
import { formatParityText, parityPassed, slowestParity, summariseParity, toParityJson, toParityJUnit } from '../parity/report.js'
import { type ParityOptions, type ParityReport, ParitySetupError, runParity } from '../parity/run.js'
import { runMarker } from '../deployment/run-marker.js'
import { createScrubber } from '../service/credentials.js'
import { createFake } from '../create-fake.js'
import { startServer } from '../node/server.js'
import { CliError } from './cli-error.js'
import { formatRunSummary } from './run-summary.js'
import {
  checkReportPaths,
  createScrubbedOutput,
  DEFAULT_TIMEOUT_MS,
  parseHttpUrl,
  parseRunId,
  parseTimeout,
  readVerifyKey,
  runScrubbed,
  VERIFY_KEY_ENV,
} from './deployment-options.js'

/** The text of `animals-mock parity --help`; built when asked for, as the probe table is (parity-probes.ts). */
export const PARITY_HELP = `Usage: animals-mock parity --base-url <url> [options]

Sends the same ${PARITY_PROBES.length} probe requests to the fake and to a deployment (every
operation, the documented bad inputs, values outside the constraints, the auth
cases on each operation and the order of the checks, the deprecated operation,
methods and paths the spec does not have), then ${PARITY_SCENARIOS.length} scenarios that take
several requests (a refused request stores nothing, ids stay unique after
existing data and under ${PARALLEL_CREATIONS} parallel creations, the service still answers after a
2 MiB body). It reports every difference in status, the headers that matter and
the body's shape (never values such as ids, names or order). A difference that
contradicts the spec cites the sentence of the spec it breaks; every other
difference lies where the spec leaves the answer open. Contradictions of the
spec are reported even where both sides agree.

The probes create a few dozen animals on each side, every one named with the
marker "[animals-mock parity <run id>]" (printed); the service cannot delete
them. No request body is larger than 2 MiB, and that one cannot be stored.

The API key is read from ${VERIFY_KEY_ENV}, never from the command line, and never
printed; the same key is sent to the fake.

Options:
  --base-url <url>   the deployment's API base with its /v1 prefix (required)
  --fake-url <url>   compare with a running fake at this API base instead of one
                     started in this process (it must accept the key)
  --strict           fail on open differences too, not only on contradictions
  --timeout <ms>     give up on each request after this long        (default ${DEFAULT_TIMEOUT_MS})
  --run-id <id>      the run's id in the marker (default: the time and 4 hex digits)
  --json <file>      also write a JSON report: every probe and every finding
  --junit <file>     also write a JUnit XML report: a test case per probe and
                     scenario; an open difference passes with a note (fails under --strict)
  -h, --help         show this help

Report paths are checked before the first request: one that cannot be written
ends the run at once (exit 2). The run ends with a summary: the tally, the
deployment's slowest answers, and where the reports were written.

Exit codes:
  0  no contradiction of the spec (open differences are listed, and pass unless --strict)
  1  a contradiction of the spec, a probe without an answer, or under --strict any difference
  2  parity could not run: a bad option, no key, an unreachable or refusing
     deployment, animals that could not be set up; one line on stderr

Examples:
  ${VERIFY_KEY_ENV}=... animals-mock parity --base-url https://staging.example/v1
  animals-mock parity --base-url https://staging.example/v1 --json reports/parity.json --strict
  animals-mock parity --base-url https://staging.example/v1 --junit reports/parity.xml
  animals-mock parity --base-url https://staging.example/v1 --fake-url http://127.0.0.1:4010/v1
`

/** Runs `animals-mock parity`; resolves with the exit code. */
export function parity(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return runScrubbed('parity', createScrubber([env[VERIFY_KEY_ENV]]), () => run(args, env))
}

const OPTIONS = {
  'base-url': { type: 'string' },
  'fake-url': { type: 'string' },
  strict: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  'run-id': { type: 'string' },
  json: { type: 'string' },
  junit: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options']

async function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseOptions('parity', args, OPTIONS)
  if (values.help) {
    process.stdout.write(PARITY_HELP)
    return 0
  }
  const apiKey = readVerifyKey(env)
  const output = createScrubbedOutput(createScrubber([apiKey]))
  const baseUrl = parseHttpUrl('--base-url', values['base-url'])
  const fakeUrl = values['fake-url'] === undefined ? undefined : parseHttpUrl('--fake-url', values['fake-url'])
  const timeoutMs = parseTimeout(values.timeout)
  const marker = runMarker('parity', parseRunId(values['run-id']))
  await checkReportPaths([values.json, values.junit])
  await mustAnswer(baseUrl, apiKey, timeoutMs, '')
  const fake = await openFake(fakeUrl, apiKey, timeoutMs)
  try {
    output.out(`animals-mock parity: ${fake.label} against ${baseUrl}\n`)
    output.out(`marker: the animals this run creates are named "Parity probe ${marker}"\n\n`)
    const report = await compare({ fake: { baseUrl: fake.baseUrl, apiKey }, deployment: { baseUrl, apiKey }, marker, timeoutMs })
    output.out(formatParityText(report))
    const strict = values.strict
    const written: string[] = []
    if (values.json !== undefined) {
      const json = toParityJson(report, { fake: fakeUrl ?? 'in-process', deployment: baseUrl, marker, strict })
      await output.writeReport(values.json, `${JSON.stringify(json, null, 2)}\n`)
      written.push(`JSON ${values.json}`)
    }
    if (values.junit !== undefined) {
      await output.writeReport(values.junit, toParityJUnit(report, strict))
      written.push(`JUnit ${values.junit}`)
    }
    const summary = summariseParity(report)
    const passed = parityPassed(summary, strict)
    output.out(formatRunSummary({
      verdict: passed ? 'PASSED' : 'FAILED',
      counts: `${summary.probes} probes and scenarios: ${summary.alike} alike, ${summary.contradictions} contradiction(s), ${summary.open} open difference(s), ${summary.noAnswer} without an answer`,
      slowest: slowestParity(report).map(({ id, ms }) => `${id} ${ms} ms`),
      reports: written,
    }))
    return passed ? 0 : 1
  } finally {
    await fake.close()
  }
}

async function compare(options: ParityOptions): Promise<ParityReport> {
  try {
    return await runParity(options)
  } catch (error) {
    // A side that could not be set up is a run that could not run, not a difference.
    if (error instanceof ParitySetupError) throw new CliError(error.message)
    throw error
  }
}

async function mustAnswer(baseUrl: string, apiKey: string, timeoutMs: number, who: string): Promise<void> {
  const reachable = await checkDeployment({ baseUrl, apiKey, timeoutMs, keySource: VERIFY_KEY_ENV })
  if (!reachable.ok) throw new CliError(`${who}${reachable.error}`)
}

type FakeSide = { readonly baseUrl: string; readonly label: string; close(): Promise<void> }

// The fake accepts the same key and no other, so the auth probes mean the same on both sides.
async function openFake(fakeUrl: string | undefined, apiKey: string, timeoutMs: number): Promise<FakeSide> {
  if (fakeUrl !== undefined) {
    await mustAnswer(fakeUrl, apiKey, timeoutMs, 'the fake: ')
    return { baseUrl: fakeUrl, label: `the fake at ${fakeUrl}`, close: async () => undefined }
  }
  const server = await startServer({ app: createSite({ api: createFake({ keys: [apiKey] }) }) })
  const baseUrl = `${server.url}${API_BASE}`
  return { baseUrl, label: `the fake (in this process, default fixture, at ${baseUrl})`, close: () => server.close() }
}
