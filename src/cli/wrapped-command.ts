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

/**
 * Runs the command with this process's standard streams and `env`, and resolves with its exit code:
 * 128 plus the signal's number when a signal ended it (as shells report it), 127 when it was not
 * found and 126 when it could not be run (as shells do), after one line saying why. SIGINT and
 * SIGTERM sent to this process are passed on to it, as npm passes them to a script; a second one
 * kills it.
 */
export function runCommand(command: WrappedCommand, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command.file, [...command.args], { stdio: 'inherit', env })
    let signals = 0
    const pass = (signal: NodeJS.Signals): void => {
      signals += 1
      child.kill(signals > 1 ? 'SIGKILL' : signal)
    }
    const onInterrupt = (): void => pass('SIGINT')
    const onTerminate = (): void => pass('SIGTERM')
    process.on('SIGINT', onInterrupt)
    process.on('SIGTERM', onTerminate)
    let ended = false
    const end = (code: number): void => {
      // A command that cannot be started may be reported both as an error and as an exit.
      if (ended) return
      ended = true
      process.off('SIGINT', onInterrupt)
      process.off('SIGTERM', onTerminate)
      resolve(code)
    }
    child.once('error', (error: NodeJS.ErrnoException) => {
      const missing = error.code === 'ENOENT'
      process.stderr.write(`animals-mock: cannot run ${command.file}: ${missing ? 'no such command' : error.message}\n`)
      end(missing ? 127 : 126)
    })
    child.once('exit', (code, signal) => end(code ?? 128 + (signal === null ? 0 : constants.signals[signal])))
  })
}
