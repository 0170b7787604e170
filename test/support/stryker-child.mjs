// Preloaded (`--import`) into the processes tests spawn during StrykerJS's first run, through
// NODE_OPTIONS from stryker-bridge.ts: at exit it writes down which mutants this process reached,
// so that Stryker knows which tests can kill a mutant that only runs in a child process.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const folder = process.env.STRYKER_CHILD_COVERAGE_DIR
if (folder) {
  process.on('exit', () => {
    const reached = globalThis.__stryker__?.mutantCoverage?.static
    if (reached !== undefined) writeFileSync(join(folder, `${process.pid}.json`), JSON.stringify(reached))
  })
}
