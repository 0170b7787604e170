import { defineConfig } from 'vitest/config'

// `npm run test:consumers`: the packed package installed into fresh apps (npm pack, then npm ci of
// each app's pinned lock), as its users install it. Slow (installs); CI runs it after `npm test`.
export default defineConfig({
  test: {
    include: ['test/consumers/**/*.consumer.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
})
