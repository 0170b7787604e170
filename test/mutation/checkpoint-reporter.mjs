// A StrykerJS reporter (stryker.config.json's "checkpoint") that writes each result down the
// moment it is known, one JSON line each, in reports/mutation/checkpoint.jsonl. Stryker itself
// writes its incremental file only when the whole run ends, so a run stopped after hours (Ctrl-C,
// a closed session, a reboot) would lose all it learnt; test/mutation/run.ts rebuilds a partial
// report from these lines (test/mutation/checkpoint.ts) and merges it into the committed results.
// Plain JavaScript: Stryker loads its plugins in every worker process, which has no TypeScript
// loader.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin'

const CHECKPOINT_FILE = 'reports/mutation/checkpoint.jsonl'

class CheckpointReporter {
  /** @type {Set<string>} */
  sourcesWritten = new Set()
  /**
   * Vitest's test ids are file and title, a few hundred bytes each, and a mutant on the request
   * path is covered by a thousand tests: numbered, the lines are a tenth of the size.
   * @type {Map<string, string>}
   */
  numberOfTest = new Map()

  /** The tests, with their files' sources: a merge names tests by file and title. */
  onDryRunCompleted({ result }) {
    mkdirSync(dirname(CHECKPOINT_FILE), { recursive: true })
    this.numberOfTest = new Map(result.tests.map(({ id }, index) => [id, String(index)]))
    const tests = result.tests.map(({ id, name, fileName, startPosition }) => ({
      id: this.numberOfTest.get(id),
      name,
      file: fileName ? relative(process.cwd(), fileName) : '',
      ...(startPosition && { location: { start: { line: startPosition.line + 1, column: startPosition.column + 1 } } }),
    }))
    writeFileSync(CHECKPOINT_FILE, line({ tests }))
    for (const file of new Set(tests.map((test) => test.file))) if (file) this.writeSource(file)
  }

  /** Every result: those reused from the last run come first, then each mutant as it is tested. */
  onMutantTested(result) {
    const { fileName, killedBy, coveredBy, ...rest } = result
    const file = relative(process.cwd(), fileName)
    const numbered = (ids) => ids?.map((id) => this.numberOfTest.get(id) ?? id)
    const mutant = { ...rest, ...(killedBy && { killedBy: numbered(killedBy) }), ...(coveredBy && { coveredBy: numbered(coveredBy) }) }
    this.writeSource(file)
    appendFileSync(CHECKPOINT_FILE, line({ file, mutant }))
  }

  /**
   * A file's source, read when the run first reports on it (the dry run for tests, the first
   * result for code), so that results are paired with the code they measured, not with later edits.
   */
  writeSource(file) {
    if (this.sourcesWritten.has(file)) return
    this.sourcesWritten.add(file)
    appendFileSync(CHECKPOINT_FILE, line({ file, source: readFileSync(file, 'utf8') }))
  }
}

function line(record) {
  return `${JSON.stringify(record)}\n`
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'checkpoint', CheckpointReporter)]
