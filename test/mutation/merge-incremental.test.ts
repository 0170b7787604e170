import { expect, it } from 'vitest'
import { type IncrementalReport, mergeIncremental } from './merge-incremental.js'
import { folderScores } from './scores.js'

const file = (marker: string) => ({ language: 'typescript', source: marker, mutants: [{ id: marker }] })
const tests = (marker: string) => ({ tests: [{ id: `${marker}#t`, name: 't' }] })

it('keeps the results of files a narrowed run did not mutate, and takes the rest from the run', () => {
  const committed = {
    schemaVersion: '1',
    files: { 'src/core/a.ts': file('old a'), 'src/cli/b.ts': file('old b') },
    testFiles: { 'test/a.test.ts': tests('old'), 'test/b.test.ts': tests('old b') },
  }
  const run = { schemaVersion: '2', files: { 'src/core/a.ts': file('new a') }, testFiles: { 'test/a.test.ts': tests('new') } }
  expect(mergeIncremental(committed, run)).toEqual({
    schemaVersion: '2',
    files: { 'src/core/a.ts': file('new a'), 'src/cli/b.ts': file('old b') },
    testFiles: { 'test/a.test.ts': { tests: [{ id: '0', name: 't' }] }, 'test/b.test.ts': { tests: [{ id: '1', name: 't' }] } },
  })
})

it('keeps each mutant pointing at the tests that covered and killed it, though both runs numbered their tests from 0', () => {
  const committed = {
    files: { 'src/a.ts': { mutants: [{ id: 'a1', coveredBy: ['0', '1'], killedBy: ['1'] }] } },
    testFiles: { 'test/a.test.ts': { tests: [{ id: '0', name: 'alpha' }, { id: '1', name: 'beta' }] } },
  }
  const run = {
    files: { 'src/b.ts': { mutants: [{ id: 'b1', coveredBy: ['0'], killedBy: ['0'] }, { id: 'b2', coveredBy: [] }] } },
    testFiles: { 'test/b.test.ts': { tests: [{ id: '0', name: 'gamma' }] } },
  }
  const merged = mergeIncremental(committed, run)
  const nameOf = new Map(
    Object.entries(merged.testFiles ?? {}).flatMap(([path, entry]) => entry.tests.map((test) => [test.id, `${path} ${test.name}`])),
  )
  expect(nameOf.size).toBe(3)
  const [a1] = merged.files['src/a.ts']?.mutants ?? []
  expect(a1?.coveredBy?.map((id) => nameOf.get(id))).toEqual(['test/a.test.ts alpha', 'test/a.test.ts beta'])
  expect(a1?.killedBy?.map((id) => nameOf.get(id))).toEqual(['test/a.test.ts beta'])
  const [b1, b2] = merged.files['src/b.ts']?.mutants ?? []
  expect(b1?.killedBy?.map((id) => nameOf.get(id))).toEqual(['test/b.test.ts gamma'])
  expect(b1?.coveredBy?.map((id) => nameOf.get(id))).toEqual(['test/b.test.ts gamma'])
  expect(b2).toEqual({ id: 'b2', coveredBy: [] })
})

it('drops a test the run no longer has from the mutants kept, so Stryker tests them again', () => {
  const committed = {
    files: { 'src/a.ts': { mutants: [{ id: 'a1', coveredBy: ['0', '1'], killedBy: ['0'] }] } },
    testFiles: { 'test/a.test.ts': { tests: [{ id: '0', name: 'renamed since' }, { id: '1', name: 'kept' }] } },
  }
  const run = { files: {}, testFiles: { 'test/a.test.ts': { tests: [{ id: '0', name: 'kept' }, { id: '1', name: 'new' }] } } }
  const merged = mergeIncremental(committed, run)
  expect(merged.testFiles?.['test/a.test.ts']?.tests).toEqual([{ id: '0', name: 'kept' }, { id: '1', name: 'new' }])
  expect(merged.files['src/a.ts']?.mutants).toEqual([{ id: 'a1', coveredBy: ['0'], killedBy: [] }])
})

const mutants = (...statuses: string[]) => ({ mutants: statuses.map((status) => ({ status })) })

it('scores each folder as Stryker does: timeouts count as killed, ignored mutants count for nothing', () => {
  const report: IncrementalReport = {
    files: {
      'src/fake/app.ts': mutants('Killed', 'Killed', 'Timeout', 'Survived'),
      'src/fake/journal.ts': mutants('NoCoverage', 'Ignored', 'Killed'),
      'src/cli/serve.ts': mutants('Ignored'),
    },
  }
  expect(folderScores(report)).toEqual([
    { folder: 'src/cli', killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 1, score: undefined },
    { folder: 'src/fake', killed: 3, timeout: 1, survived: 1, noCoverage: 1, ignored: 1, score: (100 * 4) / 6 },
  ])
  expect(folderScores(report, 1)).toEqual([{ folder: 'src', killed: 3, timeout: 1, survived: 1, noCoverage: 1, ignored: 2, score: (100 * 4) / 6 }])
})
