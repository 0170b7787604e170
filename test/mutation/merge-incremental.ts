// The parts of Stryker's incremental file (a mutation-testing-report-schema report) a merge touches.
type Test = { id: string; name: string } & Record<string, unknown>
type TestFile = { tests: Test[] } & Record<string, unknown>
type Mutant = { coveredBy?: string[]; killedBy?: string[] } & Record<string, unknown>
type SourceFile = { mutants: Mutant[] } & Record<string, unknown>
export type IncrementalReport = { files: Record<string, SourceFile>; testFiles?: Record<string, TestFile> } & Record<string, unknown>

/**
 * The committed results updated with a newer run: each source or test file the run reported is
 * taken whole from it, every other file kept.
 *
 * A report names its tests by ids it numbers itself ("0", "1", ...), so the same id means a
 * different test in another run. Each mutant's coveredBy and killedBy are therefore read through
 * the report it came from (to its test file and title) and renumbered for the merged report; a
 * test that is no longer in the merged report is dropped from them, and Stryker re-tests a mutant
 * whose killing test has gone.
 */
export function mergeIncremental(committed: IncrementalReport, run: IncrementalReport): IncrementalReport {
  const testFiles = { ...committed.testFiles, ...run.testFiles }
  const mergedIds = new Map<string, string>()
  const renumbered = Object.fromEntries(
    Object.entries(testFiles).map(([file, entry]) => [
      file,
      {
        ...entry,
        tests: entry.tests.map((test) => {
          const id = String(mergedIds.size)
          if (!mergedIds.has(testKey(file, test.name))) mergedIds.set(testKey(file, test.name), id)
          return { ...test, id: mergedIds.get(testKey(file, test.name)) ?? id }
        }),
      },
    ]),
  )
  const files: Record<string, SourceFile> = {}
  for (const report of [committed, run]) {
    const keyOfId = new Map<string, string>()
    for (const [file, entry] of Object.entries(report.testFiles ?? {}))
      for (const test of entry.tests) keyOfId.set(test.id, testKey(file, test.name))
    const translate = (ids: string[]) =>
      ids.flatMap((id) => {
        const merged = mergedIds.get(keyOfId.get(id) ?? '')
        return merged === undefined ? [] : [merged]
      })
    for (const [name, entry] of Object.entries(report.files))
      files[name] = {
        ...entry,
        mutants: entry.mutants.map((mutant) => ({
          ...mutant,
          ...(mutant.coveredBy && { coveredBy: translate(mutant.coveredBy) }),
          ...(mutant.killedBy && { killedBy: translate(mutant.killedBy) }),
        })),
      }
  }
  return { ...run, files, testFiles: renumbered }
}

function testKey(file: string, name: string): string {
  return `${file}\n${name}`
}
