import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { IncrementalReport } from './merge-incremental.js'

/** One folder's results in a report, and its score as Stryker counts it. */
export type FolderScore = {
  readonly folder: string
  readonly killed: number
  readonly timeout: number
  readonly survived: number
  readonly noCoverage: number
  readonly ignored: number
  /** (killed + timeout) / (killed + timeout + survived + no coverage), in percent; undefined with none of those. */
  readonly score: number | undefined
}

/** Each folder's tally, by the first `depth` parts of the files' paths (`src/core`). */
export function folderScores(report: IncrementalReport, depth = 2): FolderScore[] {
  const tallies = new Map<string, Record<string, number>>()
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const folder = file.split('/').slice(0, depth).join('/')
    const tally = tallies.get(folder) ?? {}
    for (const { status } of mutants) tally[String(status)] = (tally[String(status)] ?? 0) + 1
    tallies.set(folder, tally)
  }
  return [...tallies.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([folder, tally]) => {
      const [killed = 0, timeout = 0, survived = 0, noCoverage = 0, ignored = 0] = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored'].map((status) => tally[status])
      const scored = killed + timeout + survived + noCoverage
      return { folder, killed, timeout, survived, noCoverage, ignored, score: scored === 0 ? undefined : (100 * (killed + timeout)) / scored }
    })
}

// `npm run mutate:scores`: the committed results per folder. They hold only the mutants reached so
// far; quote a score once a run over the whole suite has completed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = JSON.parse(readFileSync(process.argv[2] ?? 'reports/stryker-incremental.json', 'utf8')) as IncrementalReport
  const rows = folderScores(report).map(({ score, ...counts }) => ({ ...counts, score: score === undefined ? '-' : score.toFixed(1) }))
  console.table(rows)
}
