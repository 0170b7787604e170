import { CliError } from './cli-error.js'
import { STOP_SIGNALS } from './wrapped-command.js'
import { ListenError, type RunningServer, type ServerOptions, startServer } from '../node/server.js'

/**
 * Resolves on the first SIGINT, SIGTERM or SIGHUP (a closed terminal stops the fake as gracefully
 * as Ctrl-C), then stops listening for them. Install it before the ready line is printed: a
 * supervisor may stop the process the moment it reads that line.
 */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      for (const signal of STOP_SIGNALS) process.off(signal, stop)
      resolve()
    }
    for (const signal of STOP_SIGNALS) process.on(signal, stop)
  })
}

/**
 * `startServer` for a command: a port that cannot be had is one line and exit code 2. An IPv6
 * `--host` may be written as in a URL, `[::1]`, which Node's listen does not take.
 */
export async function listenOrSay(options: ServerOptions & { readonly host: string }): Promise<RunningServer> {
  try {
    return await startServer({ ...options, host: options.host.replace(/^\[(.*)\]$/, '$1') })
  } catch (error) {
    if (error instanceof ListenError) throw new CliError(error.message)
    throw error
  }
}
