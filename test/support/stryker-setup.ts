import { afterAll, beforeAll, beforeEach, inject, vi } from 'vitest'
import { collectChildren, creditLivingChildren, creditSetupCoverage, startSetupCoverage } from './stryker-bridge.js'

// A setup file of vitest.mutate.config.ts only: it runs for every test file, whether or not
// modules are shared between files, after Stryker's own setup has named the current test.
// Its beforeAll runs before the test file's own (hooks run in the order they were registered),
// and its beforeEach after Stryker's has named the test. Its afterAll runs before Stryker's
// (vitest runs after-hooks in reverse order), so what spawned servers reached is counted before
// Stryker takes the file's coverage.
beforeAll(startSetupCoverage)
beforeEach(creditSetupCoverage)
beforeEach(creditLivingChildren)
afterAll(collectChildren)

// Test files share one module graph (isolate: false), and Stryker switches a mutant on in a
// beforeAll, after the test file has loaded its modules: code that runs when a module loads (a
// table, a pattern, a help text) would never meet the mutant in this process. So each mutant run
// loads the graph afresh with its mutant already on: the run's first test file resets the modules
// before its imports, and the mutant is set here, before them. Files after it share that graph.
const provided = inject as unknown as (key: string) => unknown
if (provided('mode') === 'mutant') {
  const mutant = provided('activeMutant')
  const state = globalThis as Record<string, unknown> & { __strykerGraphMutant__?: unknown }
  if (state.__strykerGraphMutant__ !== mutant) {
    vi.resetModules()
    state.__strykerGraphMutant__ = mutant
  }
  const namespace = String(provided('globalNamespace'))
  ;((state[namespace] ??= {}) as { activeMutant?: unknown }).activeMutant = mutant
}
