import { defineConfig } from 'vitest/config'

// The example app's own suite: `npx vitest run --config examples/consumer-app/vitest.config.ts`.
export default defineConfig({
  test: { root: new URL('.', import.meta.url).pathname, include: ['*.test.ts'] },
})
