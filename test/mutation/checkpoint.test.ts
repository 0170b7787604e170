import { expect, it } from 'vitest'
import { reportFromCheckpoint } from './checkpoint.js'
import { mergeIncremental } from './merge-incremental.js'

const lines = (...records: unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('')
const dryRun = {
  tests: [
    { id: 'test/a.test.ts#adds', name: 'adds', file: 'test/a.test.ts', location: { start: { line: 3, column: 1 } } },
    { id: 'test/a.test.ts#lists', name: 'lists', file: 'test/a.test.ts' },
  ],
}
const killed = { id: '7', mutatorName: 'EqualityOperator', status: 'Killed', killedBy: ['test/a.test.ts#adds'], coveredBy: ['test/a.test.ts#adds', 'test/a.test.ts#lists'] }
const survived = { id: '8', mutatorName: 'BooleanLiteral', status: 'Survived', coveredBy: ['test/a.test.ts#lists'] }

it('is nothing when the run stopped before its dry run ended', () => {
  expect(reportFromCheckpoint('')).toBeUndefined()
  expect(reportFromCheckpoint(lines({ file: 'src/a.ts', source: 'a' }))).toBeUndefined()
})

it('pairs each file with its source and the results the run reached, and each test file with its tests', () => {
  const text = lines(
    dryRun,
    { file: 'test/a.test.ts', source: 'test source' },
    { file: 'src/a.ts', source: 'a source' },
    { file: 'src/a.ts', mutant: killed },
    { file: 'src/b.ts', source: 'b source' },
    { file: 'src/b.ts', mutant: survived },
    { file: 'src/a.ts', mutant: survived },
  )
  expect(reportFromCheckpoint(text)).toEqual({
    files: {
      'src/a.ts': { language: 'typescript', source: 'a source', mutants: [killed, survived] },
      'src/b.ts': { language: 'typescript', source: 'b source', mutants: [survived] },
    },
    testFiles: {
      'test/a.test.ts': {
        source: 'test source',
        tests: [
          { id: 'test/a.test.ts#adds', name: 'adds', location: { start: { line: 3, column: 1 } } },
          { id: 'test/a.test.ts#lists', name: 'lists' },
        ],
      },
    },
  })
})

it('skips a last line cut off by a kill mid-write', () => {
  const text = lines(dryRun, { file: 'src/a.ts', source: 'a' }, { file: 'src/a.ts', mutant: killed })
  const report = reportFromCheckpoint(`${text}{"file":"src/a.ts","mutant":{"id":"9","sta`)
  expect(report?.files['src/a.ts']?.mutants).toEqual([killed])
})

it('merges into the kept results, with killedBy and coveredBy read through the test titles', () => {
  const committed = {
    schemaVersion: '1.0',
    files: { 'src/c.ts': { source: 'c', mutants: [{ id: '1', killedBy: ['0'], coveredBy: ['0'] }] } },
    testFiles: { 'test/c.test.ts': { tests: [{ id: '0', name: 'counts' }] } },
  }
  const partial = reportFromCheckpoint(lines(dryRun, { file: 'src/a.ts', source: 'a' }, { file: 'src/a.ts', mutant: killed }))
  const merged = mergeIncremental(committed, { ...committed, ...partial! })
  const idOf = (file: string, name: string) => merged.testFiles?.[file]?.tests.find((test) => test.name === name)?.id
  expect(merged.schemaVersion).toBe('1.0')
  expect(merged.files['src/c.ts']?.mutants).toEqual([{ id: '1', killedBy: [idOf('test/c.test.ts', 'counts')], coveredBy: [idOf('test/c.test.ts', 'counts')] }])
  expect(merged.files['src/a.ts']?.mutants).toEqual([
    { ...killed, killedBy: [idOf('test/a.test.ts', 'adds')], coveredBy: [idOf('test/a.test.ts', 'adds'), idOf('test/a.test.ts', 'lists')] },
  ])
})
