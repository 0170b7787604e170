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
const livingChildrenTests = new Set<Set<string>>()

/** Credits the test about to run with what the living children will reach; stryker-setup.ts calls it before each test. */
export function creditLivingChildren(): void {
  const test = stryker?.currentTestId
  if (test !== undefined) for (const tests of livingChildrenTests) tests.add(test)
}

/** What a spawn under Stryker adds: the environment for the child, and what to do once it exits. */
export type StrykerChild = { readonly env: Record<string, string>; exited(): void }

const NOTHING: StrykerChild = { env: {}, exited() {} }

/** Call before spawning a process that runs the built package; pass `env` to it, call `exited` on its exit. */
export function strykerChild(baseEnv: NodeJS.ProcessEnv = process.env): StrykerChild {
  if (stryker === undefined) return NOTHING
  if (stryker.activeMutant !== undefined) return { env: { __STRYKER_ACTIVE_MUTANT__: String(stryker.activeMutant) }, exited() {} }
  const folder = mkdtempSync(join(tmpdir(), 'stryker-child-'))
  const tests = new Set<string>(stryker.currentTestId === undefined ? [] : [stryker.currentTestId])
  livingChildrenTests.add(tests)
  const nodeOptions = `${baseEnv.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim()
  return {
    env: { NODE_OPTIONS: nodeOptions, STRYKER_CHILD_COVERAGE_DIR: folder },
    exited() {
      livingChildrenTests.delete(tests)
      const coverage = (stryker.mutantCoverage ??= { static: {}, perTest: {} })
      const targets = tests.size === 0 ? [coverage.static] : [...tests].map((test) => (coverage.perTest[test] ??= {}))
      for (const file of readdirSync(folder)) {
        const reached = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Reached
        for (const target of targets) for (const [mutant, hits] of Object.entries(reached)) target[mutant] = (target[mutant] ?? 0) + hits
      }
      rmSync(folder, { recursive: true, force: true })
    },
  }
}
