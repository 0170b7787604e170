import { defineConfig } from '@playwright/test'

// One port for the run: the config is read again in every worker, which inherit the environment.
process.env.APP_PORT ??= String(20_000 + (process.pid % 20_000))
const app = `http://127.0.0.1:${process.env.APP_PORT}`

export default defineConfig({
  // Two suites of the same tests: a fake per test through @msw/playwright, and one
  // `serve --isolate` for the run with a key per worker (package.json's scripts run each).
  projects: [
    { name: 'msw', testDir: 'tests/msw' },
    { name: 'isolate', testDir: 'tests/isolate' },
  ],
  fullyParallel: true,
  workers: 2,
  reporter: 'list',
  use: {
    baseURL: app,
    // Debian's Chromium: Playwright cannot download its own here.
    launchOptions: { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] },
  },
  webServer: { command: 'node app/static-server.mjs', url: `${app}/`, env: { PORT: process.env.APP_PORT } },
})
