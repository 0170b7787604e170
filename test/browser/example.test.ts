import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildExample } from '../../examples/browser/build.js'
import { type StaticServer, serveStatic } from '../../examples/browser/serve.js'
import { DEFAULT_PETS } from '../../src/fake.js'
import { hasChromium, keepToOrigin, launchChromium } from '../support/browser.js'

let workDir: string
let site: StaticServer
let browser: Browser
let context: BrowserContext
let page: Page
let outside: string[]

beforeAll(async () => {
  if (!hasChromium) return
  workDir = await mkdtemp(join(tmpdir(), 'animals-example-'))
  site = await serveStatic(await buildExample(join(workDir, 'site')))
  browser = await launchChromium()
  context = await browser.newContext()
  // Only the example's own origin: anything else the page tries is refused and recorded.
  outside = await keepToOrigin(context, site.url)
  page = await context.newPage()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

const listedIds = (): Promise<string[]> =>
  page.locator('[data-testid="pet-item"]').evaluateAll((items) => items.map((item) => item.getAttribute('data-id') ?? ''))

const listedStatuses = (): Promise<string[]> =>
  page.locator('[data-testid="pet-item"]').evaluateAll((items) => items.map((item) => item.getAttribute('data-status') ?? ''))

/** Waits until the list shows exactly `count` animals and no request is in flight. */
async function waitForList(count: number): Promise<void> {
  await page.waitForFunction((expected) => {
    const list = document.querySelector('[data-testid="pet-list"]')
    return list !== null && !list.hasAttribute('aria-busy') && list.querySelectorAll('[data-testid="pet-item"]').length === expected
  }, count)
}

it.skipIf(!hasChromium)(
  'lists, filters, adds and looks up animals in real Chromium, served by the fake in msw’s worker',
  async () => {
    await page.goto(`${site.url}/`)
    await page.locator('[data-testid="app-state"][data-ready="true"]').waitFor()
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${site.url}/mockServiceWorker.js`)
    await waitForList(DEFAULT_PETS.length)
    expect(await listedIds()).toEqual(DEFAULT_PETS.map((pet) => String(pet.id)))

    const sold = DEFAULT_PETS.filter((pet) => pet.status === 'sold')
    await page.locator('[data-testid="status-filter"]').selectOption('sold')
    await waitForList(sold.length)
    expect(await listedIds()).toEqual(sold.map((pet) => String(pet.id)))

    await page.locator('[data-testid="add-name"]').fill('Pixel')
    await page.locator('[data-testid="add-category"]').fill('3')
    await page.locator('[data-testid="add-status"]').selectOption('sold')
    await page.locator('[data-testid="add-submit"]').click()
    await waitForList(sold.length + 1)
    const newId = String(DEFAULT_PETS.length + 1)
    expect((await listedIds()).at(-1)).toBe(newId)
    expect(new Set(await listedStatuses())).toEqual(new Set(['sold']))
    expect(await page.locator(`[data-testid="pet-item"][data-id="${newId}"]`).textContent()).toContain('Pixel')
    expect(await page.locator('[data-testid="add-result"]').textContent()).toContain(`#${newId} Pixel`)

    await page.locator('[data-testid="lookup-id"]').fill('424242')
    await page.locator('[data-testid="lookup-submit"]').click()
    const notFound = page.locator('[data-testid="lookup-not-found"]')
    await notFound.waitFor()
    expect(await notFound.textContent()).toBe('Not found: No animal has id 424242.')

    await page.locator('[data-testid="lookup-id"]').fill(newId)
    await page.locator('[data-testid="lookup-submit"]').click()
    await page.locator('[data-testid="lookup-pet"]').waitFor()
    expect(await page.locator('[data-testid="lookup-animal"]').textContent()).toBe(`#${newId} Pixel (category 3, sold)`)
    expect(await page.locator('[data-testid="lookup-deprecation"]').textContent()).toMatch(/^@\d+$/)
    expect(await page.locator('[data-testid="lookup-sunset"]').textContent()).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
    expect(await page.locator('[data-testid="lookup-link"]').textContent()).toBe('</v1/pets>; rel="successor-version"')

    // Every API call was answered in the page: the static server never saw one, and nothing left it.
    expect(site.requested.filter((path) => path.startsWith('/v1'))).toEqual([])
    expect(outside).toEqual([])
  },
  60_000,
)
