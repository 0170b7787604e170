import type { ParseArgsConfig } from 'node:util'
import { parseOptions } from './parse-options.js'
import { checkBroker, checkDeployment } from '../deployment/deployment-check.js'
import { type DeprecationWarning, deprecationWarnings } from '../verify/deprecation-warnings.js'
import { fetchBrokerPacts, readLocalPacts } from '../verify/pact-documents.js'
import { PACT_PARTIES } from '../contracts/pact-files.js'
import { runMarker } from '../deployment/run-marker.js'
import { createScrubber } from '../service/credentials.js'
import { formatVerificationText, slowestInteractions, toVerificationJson, toVerificationJUnit } from '../verify/report.js'
import { formatRunSummary } from './run-summary.js'
import type { VerificationReport } from '../verify/provider.js'
import { CliError } from './cli-error.js'
import {
  BROKER_TOKEN_ENV,
  checkReportPaths,
  createScrubbedOutput,
  DEFAULT_TIMEOUT_MS,
  parseHttpUrl,
  parseRunId,
  parseTimeout,
  readVerifyKey,
  runScrubbed,
  type ScrubbedOutput,
  VERIFY_KEY_ENV,
} from './deployment-options.js'
import { type PactSources, parsePactSources } from './pact-sources.js'
import { publishingError, runVerifierProcess } from './verify-process.js'
import { DEPRECATED_GET_PET } from '../spec/animals-service.js'
import { definedOnly } from '../service/defined-only.js'

/** The text of `animals-mock verify --help`. */
export const VERIFY_HELP = `Usage: animals-mock verify --base-url <url> [options]

Replays the consumer contracts (Pact files) against a running animals service, such
as staging, and reports every interaction: expected against actual for each failure.
Provider states are set up through the public API (POST /pets); the animals this
creates cannot be deleted, so their names end with a marker for the run,
"[animals-mock verify <run id>]", which is printed.

The API key is read from ${VERIFY_KEY_ENV}, never from the command line, and
never printed. A broker token is read from ${BROKER_TOKEN_ENV}, and never printed.

Options:
  --base-url <url>      the API base with its /v1 prefix (required)
  --pact <file|dir>     a pact file or a directory of them; repeatable
                        (default: the committed contracts/pacts/${PACT_PARTIES.consumer}-${PACT_PARTIES.provider}.json)
  --broker-url <url>    fetch the pacts for ${PACT_PARTIES.provider} from this Pact Broker instead
  --consumer-branch <b> broker: the pacts of consumer versions on this branch; repeatable
  --main-branch         broker: the pacts of each consumer's main branch
  --deployed-or-released
                        broker: the pacts of consumer versions deployed or released
  --consumer-version-selectors <json>
                        broker: selectors as Pact's JSON array, e.g. '[{"branch":"main"}]'
                        (default: [{"mainBranch":true},{"deployedOrReleased":true}])
  --provider-version <v>
                        broker: the version of the deployment verified, e.g. a commit SHA
  --branch <name>       broker: the branch of the deployment verified
  --publish             publish the results to the broker; needs --broker-url,
                        --provider-version and --branch
  --timeout <ms>        give up on each request, and each provider state's setup,
                        after this long                                (default ${DEFAULT_TIMEOUT_MS})
  --run-id <id>         the run's id in the marker (default: the time and 4 hex digits)
  --json <file>         also write a JSON report
  --junit <file>        also write a JUnit XML report
  --verbose             also print Pact's own report to stderr (the key removed)
  -h, --help            show this help

Every interaction that calls GET /pets/{petId} gets a WARN line (and a warning in
the JSON report, system-out in JUnit): that operation is deprecated and to be
removed on ${DEPRECATED_GET_PET.removal}; GET /pets with the status filter replaces it. Warnings
never change the exit code.

Report paths are checked before the first request: one that cannot be written
ends the run at once (exit 2). Each failure leads with one line saying what the
deployment answered, what the pact expected, and the spec's sentence behind it;
the run ends with a summary: the tally, the slowest interactions, the reports.

Exit codes:
  0  every interaction passed
  1  an interaction failed (the report shows which, and how)
  2  verification could not run: a bad option, no key, no pacts, an unreachable or
     refusing deployment or broker; one line on stderr

Examples:
  ${VERIFY_KEY_ENV}=... animals-mock verify --base-url https://staging.example/v1
  animals-mock verify --base-url https://staging.example/v1 --junit reports/pact.xml --json reports/pact.json
  animals-mock verify --base-url http://127.0.0.1:4010/v1 --pact contracts/pacts --timeout 2000
  ${BROKER_TOKEN_ENV}=... animals-mock verify --base-url https://staging.example/v1 \\
    --broker-url https://broker.example --consumer-branch main \\
    --publish --provider-version "$GIT_SHA" --branch main
`

const OPTIONS = {
  'base-url': { type: 'string' },
  pact: { type: 'string', multiple: true, default: [] },
  'broker-url': { type: 'string' },
  'consumer-branch': { type: 'string', multiple: true, default: [] },
  'main-branch': { type: 'boolean', default: false },
  'deployed-or-released': { type: 'boolean', default: false },
  'consumer-version-selectors': { type: 'string' },
  'provider-version': { type: 'string' },
  branch: { type: 'string' },
  publish: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  'run-id': { type: 'string' },
  json: { type: 'string' },
  junit: { type: 'string' },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options']

/** Runs `animals-mock verify`; resolves with the exit code. */
export function verify(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return runScrubbed('verify', createScrubber([env[VERIFY_KEY_ENV], env[BROKER_TOKEN_ENV]]), () => run(args, env))
}

async function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseOptions('verify', args, OPTIONS)
  if (values.help) {
    process.stdout.write(VERIFY_HELP)
    return 0
  }
  requirePact()
  const apiKey = readVerifyKey(env)
  const token = env[BROKER_TOKEN_ENV] === '' ? undefined : env[BROKER_TOKEN_ENV]
  const output = createScrubbedOutput(createScrubber([apiKey, token]))
  const baseUrl = parseHttpUrl('--base-url', values['base-url'])
  const timeoutMs = parseTimeout(values.timeout)
  const marker = runMarker('verify', parseRunId(values['run-id']))
  const sources = await parsePactSources(values)
  await checkReportPaths([values.json, values.junit])
  await checkReachable(baseUrl, apiKey, sources, token, timeoutMs)
  const warnings = await warningsOf(sources, token, timeoutMs, output)

  output.out(`animals-mock verify: ${sources.description} against ${baseUrl}\n`)
  output.out(`marker: the animals this run creates are named "<name> ${marker}"\n\n`)
  const { pactUrls, broker } = sources
  const options = {
    providerBaseUrl: baseUrl,
    apiKey,
    marker,
    timeoutMs,
    ...(pactUrls.length === 0 ? {} : { pactUrls }),
    ...definedOnly({ broker }),
  }
  const { reply, log } = await runVerifierProcess({ options }, env)
  if (values.verbose) output.err(log)
  if (!reply.ok) throw new CliError(`verification could not run: ${firstLine(reply.message)}`)
  const { report } = reply
  if (report.interactions.length === 0) {
    throw new CliError(`verification could not run: ${firstLine(report.problems[0] ?? 'the pacts hold no interactions')}`)
  }
  const written = await writeReports(output, report, values, { baseUrl, marker, pacts: sources.description }, warnings)
  if (broker?.publish === true) {
    const refused = publishingError(log)
    if (refused !== undefined) throw new CliError(`could not publish the results to ${broker.url}: ${refused}`)
    output.out(`published the results to ${broker.url} as ${PACT_PARTIES.provider} ${broker.providerVersion} on branch ${broker.branch}\n`)
  }
  const passed = report.passed && report.problems.length === 0 && report.failed.length === 0
  const failed = report.interactions.filter((each) => !each.passed).length
  output.out(formatRunSummary({
    verdict: passed ? 'PASSED' : 'FAILED',
    counts: `${report.interactions.length} interactions: ${report.interactions.length - failed} passed, ${failed} failed; ${report.problems.length} problem(s) outside them; ${warnings.length} deprecation warning(s)`,
    slowest: slowestInteractions(report),
    reports: written,
  }))
  return passed ? 0 : 1
}

async function checkReachable(
  baseUrl: string,
  apiKey: string,
  sources: PactSources,
  token: string | undefined,
  timeoutMs: number,
): Promise<void> {
  const deployment = await checkDeployment({ baseUrl, apiKey, timeoutMs, keySource: VERIFY_KEY_ENV })
  if (!deployment.ok) throw new CliError(deployment.error)
  if (sources.broker === undefined) return
  const broker = await checkBroker({ brokerUrl: sources.broker.url, timeoutMs, ...definedOnly({ token }) })
  if (!broker.ok) throw new CliError(broker.error)
}

async function writeReports(
  output: ScrubbedOutput,
  report: VerificationReport,
  files: { readonly json?: string | undefined; readonly junit?: string | undefined },
  run: { readonly baseUrl: string; readonly marker: string; readonly pacts: string },
  warnings: readonly DeprecationWarning[],
): Promise<string[]> {
  output.out(formatVerificationText(report, warnings))
  const written: string[] = []
  if (files.json !== undefined) {
    await output.writeReport(files.json, `${JSON.stringify(toVerificationJson(report, run, warnings), null, 2)}\n`)
    written.push(`JSON ${files.json}`)
  }
  if (files.junit !== undefined) {
    await output.writeReport(files.junit, toVerificationJUnit(report, warnings))
    written.push(`JUnit ${files.junit}`)
  }
  return written
}

// Warnings never change the exit code, so a broker that will not show its pacts twice costs one line, not the run.
async function warningsOf(sources: PactSources, token: string | undefined, timeoutMs: number, output: ScrubbedOutput): Promise<DeprecationWarning[]> {
  const pacts = await readLocalPacts(sources.pactUrls)
  if (sources.broker !== undefined) {
    try {
      pacts.push(...(await fetchBrokerPacts({ broker: sources.broker, timeoutMs, ...definedOnly({ token }) })))
    } catch (error) {
      output.err(`animals-mock verify: could not read the broker's pacts for deprecation warnings: ${(error as Error).message}\n`)
    }
  }
  return pacts.flatMap(deprecationWarnings)
}

/**
 * Pact's verifier is an optional peer dependency (its native core is 16 MB, and only this command
 * needs it): without it, one line says how to add it.
 */
function requirePact(): void {
  try {
    import.meta.resolve('@pact-foundation/pact')
  } catch {
    throw new CliError('verify needs Pact\'s verifier, which is not installed: npm install --save-dev @pact-foundation/pact')
  }
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? text
}
