import { expect, it } from 'vitest'
import type { IncrementalReport } from './merge-incremental.js'
import { folderScores } from './scores.js'

const mutants = (...statuses: string[]) => ({ mutants: statuses.map((status) => ({ status })) })

it('scores each folder as Stryker does: timeouts count as killed, ignored mutants count for nothing', () => {
  const report: IncrementalReport = {
    files: {
      'src/core/app.ts': mutants('Killed', 'Killed', 'Timeout', 'Survived'),
      'src/core/store.ts': mutants('NoCoverage', 'Ignored', 'Killed'),
      'src/cli/serve.ts': mutants('Ignored'),
    },
  }
  expect(folderScores(report)).toEqual([
    { folder: 'src/cli', killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 1, score: undefined },
    { folder: 'src/core', killed: 3, timeout: 1, survived: 1, noCoverage: 1, ignored: 1, score: (100 * 4) / 6 },
  ])
  expect(folderScores(report, 1)).toEqual([{ folder: 'src', killed: 3, timeout: 1, survived: 1, noCoverage: 1, ignored: 2, score: (100 * 4) / 6 }])
})
