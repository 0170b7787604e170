import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// ANIMALS_MOCK_MSW=3 runs the suite against msw 3 (installed as the alias msw3), which needs
// Node 22.12 or later: CI does so on Node 24 (see test/consumers/run-on-node24.ts).
const msw3 = process.env.ANIMALS_MOCK_MSW === '3'

// `#seed-generator` (package.json `imports`) points into dist/; tests run the sources.
const seedGenerator = { find: '#seed-generator', replacement: fileURLToPath(new URL('src/seed/generate-pets.ts', import.meta.url)) }

export default defineConfig({
  resolve: { alias: [seedGenerator, ...(msw3 ? [{ find: /^msw(\/.*)?$/, replacement: 'msw3$1' }] : [])] },
  test: {
    include: ['test/**/*.test.ts'],
    // The consumer apps' own tests run in their apps (npm run test:consumers), not here.
    exclude: ['test/consumers/apps/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Pact's core sends anonymous usage metrics from consumer tests and verifications unless told not to.
    env: { PACT_DO_NOT_TRACK: 'true' },
    ...(msw3 ? { server: { deps: { inline: [/animals-mock/] } } } : {}),
  },
})
