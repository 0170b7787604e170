import { spawn } from 'node:child_process'
import { constants } from 'node:os'
import { CliError } from './cli-error.js'

/** The environment variable that gives a wrapped command the API base URL, with `/v1`. */
export const URL_ENV = 'ANIMALS_MOCK_URL'

/** A command given after `--`: run once the server is ready, and the server stops when it ends. */
export type WrappedCommand = { readonly file: string; readonly args: readonly string[] }

/**
 * Splits a command's arguments at the first `--`: the options before it, the command after it.
 * @example splitAtCommand(['--port', '0', '--', 'npm', 'test']) // { options: ['--port', '0'], command: { file: 'npm', args: ['test'] } }
 */
export function splitAtCommand(args: readonly string[]): { readonly options: readonly string[]; readonly command?: WrappedCommand } {
  const at = args.indexOf('--')
  if (at === -1) return { options: args }
  const [file, ...rest] = args.slice(at + 1)
  if (file === undefined || file === '') throw new CliError('-- must be followed by a command to run, e.g. -- npm test')
  return { options: args.slice(0, at), command: { file, args: rest } }
}

/** The signals that stop a wrapped command, and the serve or proxy around it: a hang-up is taken as SIGTERM. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** How long what a command left running gets after SIGTERM before SIGKILL. */
export const LEFTOVER_GRACE_MS = 5_000

/**
 * Runs the command with this process's standard streams and `env`, and resolves with its exit code:
 * 128 plus the signal's number when a signal ended it (as shells report it), 127 when it was not
 * found and 126 when it could not be run (as shells do), after one line saying why.
 *
 * The command runs in a process group of its own, as start-server-and-test and concurrently run
 * theirs, so that what it starts (`sh -c 'next build && next start'`, npm's scripts) goes with it:
 * SIGINT and SIGTERM sent to this process, and SIGHUP taken as SIGTERM, are passed on to the whole
 * group, a second one kills it, and whatever of the group outlives the command is stopped before
 * this resolves. A command on a terminal stays in the terminal's group instead, so that it can read
 * the keyboard (a watch mode) and Ctrl-C reaches all of it from the terminal itself.
 */
export function runCommand(command: WrappedCommand, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const grouped = process.stdin.isTTY !== true
    const child = spawn(command.file, [...command.args], { stdio: 'inherit', env, detached: grouped })
    const target = (): number | undefined => (child.pid === undefined ? undefined : grouped ? -child.pid : child.pid)
    let signals = 0
    const pass = (signal: NodeJS.Signals): void => {
      signals += 1
      send(target(), signals > 1 ? 'SIGKILL' : signal === 'SIGHUP' ? 'SIGTERM' : signal)
    }
    const listeners = STOP_SIGNALS.map((signal) => [signal, () => pass(signal)] as const)
    for (const [signal, listener] of listeners) process.on(signal, listener)
    let ended = false
    const end = (code: number): void => {
      // A command that cannot be started may be reported both as an error and as an exit.
      if (ended) return
      ended = true
      for (const [signal, listener] of listeners) process.off(signal, listener)
      const group = target()
      void (grouped && group !== undefined ? stopGroup(group) : Promise.resolve()).then(() => resolve(code))
    }
    child.once('error', (error: NodeJS.ErrnoException) => {
      const missing = error.code === 'ENOENT'
      process.stderr.write(`animals-mock: cannot run ${command.file}: ${missing ? 'no such command' : error.message}\n`)
      end(missing ? 127 : 126)
    })
    child.once('exit', (code, signal) => end(code ?? 128 + (signal === null ? 0 : constants.signals[signal])))
  })
}

/** Sends a signal to a process or (negative) a group; false when none is left. */
function send(target: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (target === undefined) return false
  try {
    process.kill(target, signal)
    return true
  } catch {
    return false // gone already
  }
}

/** Stops what is left of the command's group: SIGTERM, then SIGKILL after `LEFTOVER_GRACE_MS`. */
async function stopGroup(group: number): Promise<void> {
  if (!send(group, 'SIGTERM')) return
  for (let waited = 0; waited < LEFTOVER_GRACE_MS; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    if (!send(group, 0)) return
  }
  send(group, 'SIGKILL')
}
