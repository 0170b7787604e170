import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

/** Debian's Chromium; no browser is downloaded, so the tests use the system's (`CHROMIUM_PATH` names another). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Whether the browser tests can run here; when not, they are skipped with one line saying why. */
export const hasChromium = existsSync(CHROMIUM_PATH)

if (!hasChromium) console.log(`browser tests skipped: Chromium is absent (${CHROMIUM_PATH}); install it with apt-get install chromium`)

/** Launches headless Chromium with a fresh profile and nothing in the background that goes online. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

/**
 * Keeps a browser context to one origin: every request is recorded, and any to another address is
 * refused and listed in the array returned, which a test expects to stay empty.
 */
export async function keepToOrigin(context: BrowserContext, origin: string): Promise<string[]> {
  const outside: string[] = []
  const isInside = (url: string): boolean => url === origin || url.startsWith(`${origin}/`) || url.startsWith('data:')
  context.on('request', (request) => {
    if (!isInside(request.url())) outside.push(request.url())
  })
  await context.route('**/*', (route) => (isInside(route.request().url()) ? route.continue() : route.abort('blockedbyclient')))
  return outside
}

const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))

/**
 * Saves a screenshot for the README when `ANIMALS_MOCK_SCREENSHOTS=1` (`npm run screenshots`);
 * otherwise does nothing, so `npm test` never rewrites them.
 */
export async function screenshotForReadme(page: Page, name: string): Promise<void> {
  if (process.env.ANIMALS_MOCK_SCREENSHOTS !== '1') return
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` })
}
