import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    browser: {
      enabled: true,
      headless: true,
      // Debian's Chromium: Playwright cannot download its own here.
      provider: playwright({ launchOptions: { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] } }),
      instances: [{ browser: 'chromium' }],
    },
  },
})
