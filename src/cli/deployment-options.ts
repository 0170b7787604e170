import { mkdir, open, rm, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createRunId, isRunId } from '../deployment/run-marker.js'
import type { Scrubber } from '../service/credentials.js'
import { isToken68 } from '../service/auth.js'
import { CliError, isCliError } from './cli-error.js'

/** The environment variable holding the key `verify` and `parity` send to the deployment. */
export const VERIFY_KEY_ENV = 'ANIMALS_MOCK_VERIFY_KEY'

/** The environment variable holding the Pact Broker's bearer token. */
export const BROKER_TOKEN_ENV = 'PACT_BROKER_TOKEN'

/** How long each request may take unless `--timeout` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000

/** The key from the environment, refused with one line (which never shows it) when missing or unusable. */
export function readVerifyKey(env: NodeJS.ProcessEnv): string {
  const key = env[VERIFY_KEY_ENV]
  if (key === undefined || key.trim() === '') {
    throw new CliError(`${VERIFY_KEY_ENV} is not set: export the API key the deployment accepts (it is never read from the command line)`)
  }
  if (!isToken68(key)) {
    throw new CliError(`${VERIFY_KEY_ENV} is not a usable bearer token: only letters, digits and - . _ ~ + / (then = padding)`)
  }
  return key
}

/**
 * An http(s) URL without credentials, query or fragment, and without a trailing slash.
 * @example parseHttpUrl('--base-url', 'https://staging.example/v1/') // 'https://staging.example/v1'
 */
export function parseHttpUrl(flag: string, text: string | undefined): string {
  if (text === undefined) throw new CliError(`${flag} is required, e.g. ${flag} https://staging.example/v1`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new CliError(`${flag} must be an http or https URL such as https://staging.example/v1`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`${flag} must be an http or https URL, not ${url.protocol}`)
  }
  // Credentials in a URL end up in logs; the key has its own variable.
  if (url.username !== '' || url.password !== '') throw new CliError(`${flag} must not carry credentials`)
  if (url.search !== '' || url.hash !== '') throw new CliError(`${flag} must not have a query or a fragment`)
  let base = url.href
  while (base.endsWith('/')) base = base.slice(0, -1)
  return base
}

/** `--timeout` in milliseconds, 1 to 600000. */
export function parseTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_MS
  const value = /^[0-9]{1,6}$/.test(text) ? Number(text) : Number.NaN
  if (!(value >= 1 && value <= 600_000)) throw new CliError(`--timeout must be milliseconds from 1 to 600000, not "${text}"`)
  return value
}

/** `--run-id`, or one made from the time and a random suffix. */
export function parseRunId(text: string | undefined): string {
  if (text === undefined) return createRunId(new Date(), Math.random)
  if (!isRunId(text)) throw new CliError('--run-id may hold 1 to 64 letters, digits, dots, dashes and underscores')
  return text
}

/** Where a command writes: stdout, stderr and report files (their directory made if missing), every text scrubbed first. */
export type ScrubbedOutput = {
  out(text: string): void
  err(text: string): void
  writeReport(path: string, text: string): Promise<void>
}

/**
 * Checks, before the first request of a run, that each report can be written where asked: its
 * folder made or there, the file opened for writing and left as it was. A path that cannot be
 * written ends the run at once (exit 2) rather than after every request was sent.
 */
export async function checkReportPaths(paths: readonly (string | undefined)[]): Promise<void> {
  for (const path of paths) {
    if (path === undefined) continue
    const existed = await stat(path).then(() => true, () => false)
    try {
      await mkdir(dirname(path), { recursive: true })
      await (await open(path, 'a')).close()
      if (!existed) await rm(path)
    } catch (error) {
      throw new CliError(`cannot write the report ${path}: ${(error as Error).message}`)
    }
  }
}

/** Output that passes everything through the scrubber: the last guard against a leaked key or token. */
export function createScrubbedOutput(scrub: Scrubber): ScrubbedOutput {
  return {
    out: (text) => void process.stdout.write(scrub(text)),
    err: (text) => void process.stderr.write(scrub(text)),
    async writeReport(path, text) {
      try {
        await mkdir(dirname(path), { recursive: true })
        await writeFile(path, scrub(text))
      } catch (error) {
        throw new CliError(`cannot write the report ${path}: ${scrub((error as Error).message)}`)
      }
    },
  }
}

/**
 * Runs a command so that whatever goes wrong ends as one scrubbed line and exit code 2, never a
 * stack trace that could carry a secret.
 */
export async function runScrubbed(command: string, scrub: Scrubber, run: () => Promise<number>): Promise<number> {
  try {
    return await run()
  } catch (error) {
    if (isCliError(error)) throw new CliError(scrub(error.message), error.exitCode)
    const message = error instanceof Error ? error.message : String(error)
    const code = (error as { code?: unknown } | null)?.code
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) throw new CliError(scrub(message))
    const line = message.split('\n').find((each) => each.trim() !== '') ?? message
    throw new CliError(`${command} could not run: ${scrub(line.trim())}`)
  }
}
