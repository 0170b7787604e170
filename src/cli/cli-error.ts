/** A failure the user can fix: printed as one line, exit code 2, never a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError'
  readonly exitCode: number

  constructor(message: string, exitCode = 2) {
    super(message)
    this.exitCode = exitCode
  }
}

/** Whether an error is a `CliError`. */
export function isCliError(error: unknown): error is CliError {
  return error instanceof CliError
}
