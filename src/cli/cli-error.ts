/** A failure the user can fix: printed as one line, exit code 2, never a stack trace. */
export class CliError extends Error {
  // Stryker disable next-line StringLiteral: the name shows only in a stack trace, which the CLI never prints
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
