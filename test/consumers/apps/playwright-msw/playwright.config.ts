import { defineConfig } from '@playwright/test'

// One port for the run: the config is read again in every worker, which inherit the environment.
process.env.APP_PORT ??= String(20_000 + (process.pid % 20_000))
const app = `http://127.0.0.1:${process.env.APP_PORT}`

export default defineConfig({
  testDir: 'tests',
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
