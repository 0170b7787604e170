import type { VerificationReport, VerifyProviderOptions } from '../verify/provider.js'

/** What `verify` sends its worker over IPC: the key travels this way, never in argv or the environment. */
export type WorkerRequest = { readonly options: VerifyProviderOptions }

/** What the worker answers: the report, or why the verifier could not run. */
export type WorkerReply = { readonly ok: true; readonly report: VerificationReport } | { readonly ok: false; readonly message: string }

// Pact's verifier prints its own report straight to this process's stdout, from native code; a
// worker process of its own is the one way `verify` keeps its output readable.
function reply(message: WorkerReply, end: () => void = () => process.exit(0)): void {
  if (process.send === undefined) {
    process.exitCode = 2
    return
  }
  process.send(message, end)
}

// pact-js's proxy throws from a socket callback when the provider goes away in the middle of a run.
// Pact's native run goes on, and an exit waits for it to end, each of its requests timing out (2.7
// minutes for the committed pact at the default timeout): only a kill ends the worker at once.
process.on('uncaughtException', (error) => {
  const code = (error as { code?: unknown }).code
  const suffix = typeof code === 'string' && !error.message.includes(code) ? ` (${code})` : ''
  reply({ ok: false, message: `the verifier stopped: ${error.message}${suffix}` }, () => process.kill(process.pid, 'SIGKILL'))
})

process.once('message', (message: WorkerRequest) => {
  void import('../verify/provider.js')
    .then(({ verifyProvider }) => verifyProvider(message.options))
    .then(
      (report) => reply({ ok: true, report }),
      (error: unknown) => reply({ ok: false, message: error instanceof Error ? error.message : String(error) }),
    )
})
