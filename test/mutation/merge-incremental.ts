// The parts of Stryker's incremental file (a mutation-testing-report-schema report) a merge touches.
type Entries = Record<string, { tests?: unknown[]; mutants?: unknown[] } & Record<string, unknown>>
export type IncrementalReport = { files: Entries; testFiles?: Entries } & Record<string, unknown>

/**
 * The committed results updated with a newer run: each source or test file the run reported is
 * taken whole from it, every other file kept. Test ids are stable across runs (the vitest runner
 * names a test by its file and title), so mutants kept from earlier runs still find their tests;
 * one whose test has gone is simply re-tested by the next run.
 */
export function mergeIncremental(committed: IncrementalReport, run: IncrementalReport): IncrementalReport {
  return {
    ...run,
    files: { ...committed.files, ...run.files },
    testFiles: { ...committed.testFiles, ...run.testFiles },
  }
}
