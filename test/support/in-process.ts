import { expect, vi } from 'vitest'
import { isCliError } from '../../src/cli/cli-error.js'

/** How a command run in this process ended: its exit code, or the one-line refusal it threw (exit code 2). */
export type InProcessOutcome = {
  readonly code: number | undefined
  readonly refused: string | undefined
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command's function in this process with stdout and stderr captured. */
export async function runInProcess(command: () => Promise<number>): Promise<InProcessOutcome> {
  const stdout: string[] = []
  const stderr: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true))
  try {
    const code = await command()
    return { code, refused: undefined, stdout: stdout.join(''), stderr: stderr.join('') }
  } catch (error) {
    if (!isCliError(error)) throw error
    expect(error.exitCode).toBe(2)
    return { code: undefined, refused: error.message, stdout: stdout.join(''), stderr: stderr.join('') }
  } finally {
    vi.restoreAllMocks()
  }
}
