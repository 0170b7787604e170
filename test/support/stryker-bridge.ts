import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// StrykerJS runs the tests against mutated `src/` and builds the sandbox's `dist/` from it, but
// only tells the test process which mutant is active, and only counts what that process reached.
// Most of the CLI runs in processes the tests spawn, so without this bridge every mutant there
// would be "no coverage" or survive. The bridge carries the active mutant into each child (the
// instrumented code reads `__STRYKER_ACTIVE_MUTANT__`), and during the first run brings back what
// each child reached, credited to the tests that ran while it lived. Outside Stryker it does nothing.

type Reached = Record<string, number>
type StrykerNamespace = {
  activeMutant?: string
  currentTestId?: string
  mutantCoverage?: { static: Reached; perTest: Record<string, Reached> }
}

const stryker = (globalThis as { __stryker__?: StrykerNamespace }).__stryker__
const PRELOAD = fileURLToPath(new URL('./stryker-child.mjs', import.meta.url))

// What a test file's beforeAll hooks reach (a server started once for the whole file, say) runs
// while no test is named, so Stryker counts it as static: reached on loading, not by a test. A
// mutant reached there and also by some other file's test would then be tried against that test
// alone, never against the tests of the file that set it up, and survive. Mutants a file's setup
// reached are credited to each of its tests instead (and stay static too, so Stryker still reloads
// the modules for them when they are also reached on loading).
let staticBeforeFile: Readonly<Reached> = {}

/** Notes how often each mutant was reached before this test file's own hooks run; stryker-setup.ts calls it in its beforeAll. */
export function startSetupCoverage(): void {
  staticBeforeFile = { ...stryker?.mutantCoverage?.static }
}

/**
 * Credits the test about to run with what this file's setup reached: every mutant reached more
 * often than before the file began (test files share one module graph and one count, so an earlier
 * file's setup may have reached it too). stryker-setup.ts calls it before each test.
 */
export function creditSetupCoverage(): void {
  const test = stryker?.currentTestId
  const coverage = stryker?.mutantCoverage
  if (test === undefined || coverage === undefined) return
  const credited = (coverage.perTest[test] ??= {})
  for (const [mutant, hits] of Object.entries(coverage.static)) {
    if (hits > (staticBeforeFile[mutant] ?? 0)) credited[mutant] = (credited[mutant] ?? 0) + 1
  }
}

/** A spawned child under the first run: where it writes what it reaches, and the tests it lived through. */
type Child = { readonly folder: string; readonly tests: Set<string>; readonly counted: Set<string> }
const children = new Set<Child>()

/** Credits the test about to run with what the living children will reach; stryker-setup.ts calls it before each test. */
export function creditLivingChildren(): void {
  const test = stryker?.currentTestId
  if (test !== undefined) for (const child of children) child.tests.add(test)
}

/**
 * Adds what the children reached so far to the coverage Stryker collects. stryker-setup.ts calls
 * it after each test file, before Stryker's own hook takes the file's coverage: a server a test
 * file ends with SIGKILL in its afterAll has not even reported its exit by then.
 */
export function collectChildren(): void {
  for (const child of children) collect(child)
}

function collect(child: Child): void {
  if (stryker === undefined) return
  const coverage = (stryker.mutantCoverage ??= { static: {}, perTest: {} })
  const targets = child.tests.size === 0 ? [coverage.static] : [...child.tests].map((test) => (coverage.perTest[test] ??= {}))
  // One file per process (grandchildren too), a line per mutant it reached.
  for (const file of readdirSync(child.folder)) {
    for (const mutant of readFileSync(join(child.folder, file), 'utf8').split('\n')) {
      if (mutant === '' || child.counted.has(`${file}:${mutant}`)) continue
      child.counted.add(`${file}:${mutant}`)
      for (const target of targets) target[mutant] = (target[mutant] ?? 0) + 1
    }
  }
}

/** What a spawn under Stryker adds: the environment for the child, and what to do once it exits. */
export type StrykerChild = { readonly env: Record<string, string>; exited(): void }

const NOTHING: StrykerChild = { env: {}, exited() {} }

/** Call before spawning a process that runs the built package; pass `env` to it, call `exited` on its exit. */
export function strykerChild(baseEnv: NodeJS.ProcessEnv = process.env): StrykerChild {
  if (stryker === undefined) return NOTHING
  if (stryker.activeMutant !== undefined) return { env: { __STRYKER_ACTIVE_MUTANT__: String(stryker.activeMutant) }, exited() {} }
  const child: Child = {
    folder: mkdtempSync(join(tmpdir(), 'stryker-child-')),
    tests: new Set(stryker.currentTestId === undefined ? [] : [stryker.currentTestId]),
    counted: new Set(),
  }
  children.add(child)
  const nodeOptions = `${baseEnv.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim()
  return {
    env: { NODE_OPTIONS: nodeOptions, STRYKER_CHILD_COVERAGE_DIR: child.folder },
    exited() {
      collect(child)
      children.delete(child)
      rmSync(child.folder, { recursive: true, force: true })
    },
  }
}
