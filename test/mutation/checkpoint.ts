import type { IncrementalReport } from './merge-incremental.js'

type Test = { id: string; name: string; file: string; location?: unknown }
type Line =
  | { tests: Test[] }
  | { file: string; source: string }
  | { file: string; mutant: Record<string, unknown> }
type TestFiles = NonNullable<IncrementalReport['testFiles']>

/**
 * The results a stopped run had reached, as a report to merge into the kept one
 * (mergeIncremental), from the lines test/mutation/checkpoint-reporter.mjs wrote; undefined when
 * the run stopped before its dry run ended, as nothing was measured then.
 *
 * A file appears with the mutants the run had a result for: its reused results (reported first)
 * and those tested so far. A mutant it had not reached is missing, so the next run tests it, as
 * this one would have.
 */
export function reportFromCheckpoint(text: string): Pick<IncrementalReport, 'files' | 'testFiles'> | undefined {
  const lines = readLines(text)
  const tests = lines.find((line) => 'tests' in line)?.tests
  if (!tests) return undefined
  const sources = new Map<string, string>()
  const mutants = new Map<string, Record<string, unknown>[]>()
  for (const line of lines) {
    if ('source' in line) sources.set(line.file, line.source)
    else if ('mutant' in line) {
      const results = mutants.get(line.file) ?? []
      results.push(line.mutant)
      mutants.set(line.file, results)
    }
  }
  const testFiles: TestFiles = {}
  for (const { file, id, name, location } of tests)
    (testFiles[file] ??= { tests: [], ...(sources.has(file) && { source: sources.get(file) }) }).tests.push({
      id,
      name,
      ...(location !== undefined && { location }),
    })
  const files: IncrementalReport['files'] = {}
  for (const [file, results] of mutants)
    files[file] = { language: file.endsWith('.ts') ? 'typescript' : 'javascript', source: sources.get(file), mutants: results }
  return { files, testFiles }
}

/** Each whole line: the last may have been cut off when the process was killed mid-write. */
function readLines(text: string): Line[] {
  return text.split('\n').flatMap((line) => {
    try {
      return line ? [JSON.parse(line) as Line] : []
    } catch {
      return []
    }
  })
}
