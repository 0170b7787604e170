import { expect, it } from 'vitest'
import { mergeIncremental } from './merge-incremental.js'

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
    testFiles: { 'test/a.test.ts': tests('new'), 'test/b.test.ts': tests('old b') },
  })
})
