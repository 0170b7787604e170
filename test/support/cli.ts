import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { strykerChild } from './stryker-bridge.js'

/** The built CLI, as `npm start` and the `animals-mock` bin run it; `npm test` builds it first. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

/** A running CLI process with its output so far. */
export type CliProcess = {
  readonly child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>
}

/** How to run the CLI besides its arguments and environment. */
export type CliOptions = {
  /**
   * Without the privileges that let root read and write anything (capabilities dropped with
   * util-linux's setpriv), so that a folder's permissions apply as they do to any user; as
   * another user, the CLI could not read Stryker's sandbox.
   */
  readonly unprivileged?: boolean
  /** The working directory (else the caller's). */
  readonly cwd?: string
  /**
   * On a terminal, as a person runs it: a pseudo-terminal from util-linux's script. Both of the
   * CLI's streams then arrive in stdout, with the terminal's \r\n line ends read back as \n.
   */
  readonly terminal?: boolean
}

/** `args` as one POSIX shell word each, for script's --command. */
const shellWords = (args: readonly string[]): string => args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ')

/** Spawns `node dist/cli.js ...args` with an environment free of the caller's animals-mock settings. */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}, options: CliOptions = {}): CliProcess {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ANIMALS_MOCK_')))
  const stryker = strykerChild({ ...clean, ...env })
  const spawnOptions: SpawnOptions = { env: { ...clean, ...env, ...stryker.env }, stdio: ['ignore', 'pipe', 'pipe'], ...(options.cwd === undefined ? {} : { cwd: options.cwd }) }
  const command = [process.execPath, CLI, ...args]
  const child: ChildProcess =
    options.unprivileged === true && process.getuid?.() === 0
      ? spawn('setpriv', ['--bounding-set=-all', '--inh-caps=-all', ...command], spawnOptions)
      : options.terminal === true
        ? spawn('script', ['--quiet', '--flush', '--return', '--command', shellWords(command), '/dev/null'], spawnOptions)
        : spawn(process.execPath, [CLI, ...args], spawnOptions)
  child.on('exit', () => stryker.exited())
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  )
  return { child, stdout: () => (options.terminal === true ? stdout.replaceAll('\r\n', '\n') : stdout), stderr: () => stderr, exited }
}

const LISTENING = /^animals-mock listening on (\S+)$/m
// Under --log-format json the banner is one JSON object.
const LISTENING_JSON = /^\{"time":"[^"]+","event":"listening","url":"([^"]+)"/m

// Stryker's instrumented build starts more slowly (a child counting coverage took over 60 s to
// load 400,000 animals once), so vitest.mutate.config.ts stretches every wait for a start.
const START_WAIT_SCALE = Number(process.env.START_WAIT_SCALE ?? '1')

/** Waits for the line a CI script parses and returns the base URL it names. */
export async function waitForBaseUrl(cli: CliProcess, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs * START_WAIT_SCALE
  while (Date.now() < deadline) {
    const match = LISTENING.exec(cli.stdout()) ?? LISTENING_JSON.exec(cli.stdout())
    if (match?.[1] !== undefined) return match[1]
    if (cli.child.exitCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`no listening line; stdout: ${cli.stdout()} stderr: ${cli.stderr()}`)
}

/** Runs the CLI to its end. */
export async function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: CliOptions = {},
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const cli = spawnCli(args, env, options)
  const code = await cli.exited
  return { code, stdout: cli.stdout(), stderr: cli.stderr() }
}

/** A CLI process that serves: the process, its API base (with `/v1`) and its origin. */
export type ServingCli = { readonly cli: CliProcess; readonly base: string; readonly origin: string }

/**
 * Spawns the CLI with `args` (`serve` or `proxy` with `--port 0`), adds it to `running` for the
 * test file's afterEach to kill, and waits for the base URL it prints.
 */
export async function startServing(args: readonly string[], running: CliProcess[], options: CliOptions = {}, env: Record<string, string> = {}): Promise<ServingCli> {
  const cli = spawnCli(args, env, options)
  running.push(cli)
  const base = await waitForBaseUrl(cli)
  return { cli, base, origin: base.replace(/\/v1$/, '') }
}

/** Stops a CLI with SIGTERM, as a supervisor does; resolves with its exit code. */
export async function stopCli(cli: CliProcess): Promise<number | string> {
  cli.child.kill('SIGTERM')
  return cli.exited
}
