import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'
import { QuickFirstSequencer } from './test/support/quick-first-sequencer.js'

// What `npm run mutate` runs for each mutant: the suite without the test whose point is time (a
// million-animal load under a deadline), which Stryker's instrumentation slows past its limit,
// and without the Chromium tests: a browser started for each mutant they cover made a run of
// src/node alone take over five hours, and the pages they drive are served by code the HTTP
// tests cover too. Nor the package and documentation tests: they check what is shipped and
// written (bundle sizes, exports, links), which the instrumented build in Stryker's sandbox is
// not; nor the architecture test, which reads the source files (imports, function lengths,
// regular expressions), where the sandbox has every mutant side by side; nor the test that swaps
// msw for msw 3 with vi.mock, which with isolate off below would swap it for every file after it.
// The fuzzer runs with one fixed seed and fewer runs, so every mutant meets the same inputs.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/node/responsiveness.test.ts', 'test/browser/**', 'test/package/**', 'test/docs/**', 'test/architecture.test.ts', 'test/msw/msw3-runtime.test.ts', 'node_modules/**'],
      // Waits for a spawned fake's start are stretched threefold (test/support/cli.ts), and the
      // longest of them (60 s for a restart from 400,000 animals) must fit in a test. Every other
      // test file gets 90 s (test/support/mutation-timeouts.ts), so a mutant that hangs a request
      // costs 90 s, not 300.
      testTimeout: 300_000,
      hookTimeout: 120_000,
      env: { FUZZ_SEED: '1', FUZZ_RUNS: '300', START_WAIT_SCALE: '3' },
      setupFiles: ['test/support/mutation-timeouts.ts', 'test/support/stryker-setup.ts'],
      sequence: { sequencer: QuickFirstSequencer },
      // Test files share one module graph: each mutant's run no longer re-imports src/ for every
      // file, which halved the time of the core tests (23.6 s to 11.7 s on one worker); the whole
      // suite passes this way (763 tests, 182 s).
      isolate: false,
    },
  }),
)
