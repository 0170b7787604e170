import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Pact's core sends anonymous usage metrics from consumer tests and verifications unless told not to.
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
})
