import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createControl } from '../../src/fake/control.js'
import { createSite } from '../../src/site/site.js'
import { createFake, type Fake } from '../../src/fake.js'
import { createPages } from '../../src/site/pages.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { hasChromium, keepToOrigin, launchChromium, screenshotForReadme } from '../support/browser.js'
import { shippedPets } from '../support/fixtures.js'

const KEY = 'docs-key-5d1c9a'
let fake: Fake
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  if (!hasChromium) return
  fake = createFake({ pets: shippedPets('default'), keys: [KEY] })
  const pages = createPages({ keys: fake.keys, control: 'open' })
  server = await startServer({ app: createSite({ api: fake, control: createControl({ fake }), pages }) })
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

it.skipIf(!hasChromium)('sends a request through "try it" to this fake, and the page asks nothing of any other address', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1200 } })
  const outside = await keepToOrigin(context, server.url)
  const page = await context.newPage()
  await page.goto(`${server.url}/docs`)
  // The fake comes first among the servers, before the contract's placeholders.
  const servers = page.locator('.servers select option')
  await servers.first().waitFor({ state: 'attached' })
  expect((await servers.allInnerTexts()).map((label) => label.trim())).toEqual([
    '/v1 - This fake (animals-mock)',
    '{base_url}/v1 - Production',
    '{staging_url}/v1 - Staging',
  ])
  await page.locator('button.authorize').first().click()
  await page.locator('#auth-bearer-value').fill(KEY)
  await page.locator('.auth-btn-wrapper button.authorize').click()
  await page.locator('.auth-btn-wrapper button.btn-done').click()
  const operation = page.locator('#operations-animals-listPets')
  await operation.locator('.opblock-summary').click()
  await operation.locator('button.execute').click()
  const status = operation.locator('.live-responses-table .response .response-col_status').first()
  await status.filter({ hasText: /^\s*200\s*$/ }).waitFor()

  const [entry, ...others] = fake.journal()
  expect(others).toEqual([])
  expect(entry).toMatchObject({ method: 'GET', path: '/v1/pets', status: 200 })
  // No status filter pre-filled: the list of every status (the limit shows its default, 20).
  expect(new URLSearchParams(entry?.query).has('status')).toBe(false)
  expect(entry?.headers.authorization).toBe('Bearer [redacted]')
  // The page shows the fake's own answer to the same request.
  const shown = await operation.locator('.live-responses-table .response-col_description pre').first().innerText()
  const direct = await fetch(`${server.url}/v1/pets?${entry?.query}`, { headers: { authorization: `Bearer ${KEY}` } })
  expect(JSON.parse(shown)).toEqual(await direct.json())
  const listed = JSON.parse(shown) as { status?: string }[]
  expect(listed).toHaveLength(20)
  expect(new Set(listed.map((pet) => pet.status)).size).toBeGreaterThan(1)

  await page.evaluate(() => window.scrollTo(0, 0))
  await screenshotForReadme(page, 'docs')
  expect(outside).toEqual([])
  await context.close()
})

