import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

// What `npm run mutate` runs for each mutant: the suite without the test whose point is time (a
// million-animal load under a deadline), which Stryker's instrumentation slows past its limit;
// the fuzzer with one fixed seed and fewer runs, so every mutant meets the same inputs.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/node/responsiveness.test.ts', 'node_modules/**'],
      testTimeout: 120_000,
      hookTimeout: 120_000,
      env: { FUZZ_SEED: '1', FUZZ_RUNS: '2000' },
    },
  }),
)
