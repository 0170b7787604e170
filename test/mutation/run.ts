import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { reportFromCheckpoint } from './checkpoint.js'
import { mergeIncremental, type IncrementalReport } from './merge-incremental.js'

// `npm run mutate [-- stryker options]`. Stryker's incremental file holds the results of its last
// run only, so a run narrowed with --mutate would forget every other file. Stryker therefore works
// on a copy, and what it learnt is merged into the results kept in this clone
// (reports/stryker-incremental.json, which git ignores): the next run re-tests only what changed
// since, and runs of one folder at a time add up to the whole.
//
// Stryker writes that copy only when the whole run ends. A run stopped early (Ctrl-C, a closed
// terminal, a killed session) keeps what it measured through the checkpoint reporter's lines:
// merged when Stryker stops, or at the start of the next run if this process died with it.
const KEPT = 'reports/stryker-incremental.json'
const WORKING = 'reports/mutation/incremental-run.json'
const CHECKPOINT = 'reports/mutation/checkpoint.jsonl'

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as IncrementalReport
const mergeIntoKept = (run: IncrementalReport) =>
  writeFileSync(KEPT, `${JSON.stringify(existsSync(KEPT) ? mergeIncremental(read(KEPT), run) : run, null, 1)}\n`)

function keepCheckpoint(): void {
  if (!existsSync(CHECKPOINT)) return
  const partial = reportFromCheckpoint(readFileSync(CHECKPOINT, 'utf8'))
  if (partial) {
    const committed = existsSync(KEPT) ? read(KEPT) : {}
    mergeIntoKept({ ...committed, ...partial })
    const results = Object.values(partial.files).reduce((sum, file) => sum + file.mutants.length, 0)
    console.log(`kept the ${results} results (reused ones included) of a run that stopped early: merged into ${KEPT}`)
  }
  rmSync(CHECKPOINT)
}

keepCheckpoint()
mkdirSync(dirname(WORKING), { recursive: true })
if (existsSync(KEPT)) copyFileSync(KEPT, WORKING)
// stryker.config.json names WORKING as its incrementalFile, so a bare `npx stryker run` is safe too.
// Stryker's own bin rather than npx, so that a SIGTERM passed on reaches Stryker itself.
const bin = 'node_modules/@stryker-mutator/core/bin/stryker.js'
const stryker = spawn(process.execPath, [bin, 'run', ...process.argv.slice(2)], { stdio: 'inherit' })
// Ctrl-C reaches Stryker too (same process group); this process stays to keep what it measured.
process.on('SIGINT', () => {})
process.on('SIGTERM', () => stryker.kill('SIGTERM'))
stryker.on('exit', (code) => {
  if (code === 0 && existsSync(WORKING)) {
    mergeIntoKept(read(WORKING))
    rmSync(CHECKPOINT, { force: true })
    console.log(`mutation results merged into ${KEPT} (kept in this clone; git ignores reports/)`)
  } else keepCheckpoint()
  process.exit(code ?? 1)
})
