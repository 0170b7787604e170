import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { mergeIncremental, type IncrementalReport } from './merge-incremental.js'

// `npm run mutate [-- stryker options]`. Stryker's incremental file holds the results of its last
// run only, so a run narrowed with --mutate would forget every other file. Stryker therefore works
// on a copy, and what it learnt is merged into the committed results
// (reports/stryker-incremental.json): a fresh clone re-tests only what changed since, and runs of
// one folder at a time add up to the whole.
const COMMITTED = 'reports/stryker-incremental.json'
const WORKING = 'reports/mutation/incremental-run.json'

mkdirSync(dirname(WORKING), { recursive: true })
if (existsSync(COMMITTED)) copyFileSync(COMMITTED, WORKING)
// stryker.config.json names WORKING as its incrementalFile, so a bare `npx stryker run` is safe too.
const stryker = spawnSync('npx', ['stryker', 'run', ...process.argv.slice(2)], { stdio: 'inherit' })
if (stryker.status === 0 && existsSync(WORKING)) {
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as IncrementalReport
  const merged = existsSync(COMMITTED) ? mergeIncremental(read(COMMITTED), read(WORKING)) : read(WORKING)
  writeFileSync(COMMITTED, `${JSON.stringify(merged, null, 1)}\n`)
  console.log(`mutation results merged into ${COMMITTED}: commit it with the change it measured`)
}
process.exit(stryker.status ?? 1)
