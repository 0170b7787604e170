// Preloaded (`--import`) into the processes tests spawn during StrykerJS's first run, through
// NODE_OPTIONS from stryker-bridge.ts: it writes down each mutant this process reaches, the
// moment it first reaches it, so that Stryker knows which tests can kill a mutant that only runs
// in a child process. Written as it happens rather than at exit: most tests end their servers
// with SIGKILL, which runs no exit handler.
import { appendFileSync, closeSync, openSync } from 'node:fs'
import { join } from 'node:path'

const folder = process.env.STRYKER_CHILD_COVERAGE_DIR
if (folder) {
  const fd = openSync(join(folder, `${process.pid}.reached`), 'a')
  process.on('exit', () => closeSync(fd))
  // The instrumented code adopts a namespace that already exists and counts its hits into
  // `mutantCoverage.static` (no test runs in this process), so a first hit is a new key there.
  const reached = new Proxy(/** @type {Record<string, number>} */ ({}), {
    set(target, mutant, hits) {
      if (!(mutant in target)) appendFileSync(fd, `${String(mutant)}\n`)
      target[mutant] = hits
      return true
    },
  })
  globalThis.__stryker__ ??= {}
  globalThis.__stryker__.mutantCoverage ??= { static: reached, perTest: {} }
}
