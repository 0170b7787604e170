import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPages } from '../../src/site/pages.js'
import { redisReplica } from '../support/fake-over.js'
import { createSite } from '../../src/site/site.js'
import { hasChromium, keepToOrigin, launchChromium } from '../support/browser.js'
import { shippedPets } from '../support/fixtures.js'
import { useRedis } from '../support/redis-harness.js'
import { hasRedis } from '../support/redis-server.js'

// The dashboard of `serve --store`, in Chromium: what one replica's page shows is what the
// requests through another replica did, read from the store in Redis they share.
describe.skipIf(!hasChromium || !hasRedis)('the dashboard over a store in Redis', () => {
  const KEY = 'dash-redis-key-71c2'
  const fixture = shippedPets('default')
  const harness = useRedis()
  let browser: Browser
  let replicas: string[] = []

  beforeAll(async () => {
    replicas = []
    for (let replica = 0; replica < 2; replica++) {
      const { core, control } = await redisReplica(await harness.connect(), 'dash:', { pets: fixture, keys: [KEY], limits: { maxAnimals: 100_000 } })
      replicas.push((await harness.serve(createSite({ api: core, control, pages: createPages({ keys: core.keys, control: 'open' }) }))).url)
    }
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })

  async function openDashboard(origin: string): Promise<{ page: Page; outside: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1080 } })
    const outside = await keepToOrigin(context, origin)
    const page = await context.newPage()
    page.setDefaultTimeout(8000)
    page.on('pageerror', (error) => outside.push(`page error: ${error.message}`))
    await page.goto(`${origin}/dashboard`)
    await page.getByTestId('token-form').waitFor()
    await page.getByTestId('token-input').fill(KEY)
    await page.getByTestId('token-submit').click()
    return { page, outside }
  }

  it('shows on one replica the animals, journal, forced rule and latency set through the other, and resets them all', async () => {
    const [first = '', second = ''] = replicas
    const { page, outside } = await openDashboard(first)
    await page.getByTestId('counts').filter({ hasText: `${fixture.length} animals` }).waitFor()

    const call = (path: string, init: RequestInit = {}) => fetch(`${second}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } })
    expect((await call('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Through the other replica', categoryId: 2, status: 'sold' }) })).status).toBe(201)
    expect((await call('/__control/forced', { method: 'POST', body: JSON.stringify({ method: 'GET', path: '/pets', status: 503, times: 2 }) })).status).toBe(201)
    expect((await call('/__control/latency', { method: 'PUT', body: JSON.stringify({ minMs: 100, maxMs: 900 }) })).status).toBe(200)

    await page.getByTestId('journal-row').filter({ hasText: 'POST' }).filter({ hasText: '201' }).waitFor()
    await page.getByTestId('counts').filter({ hasText: `${fixture.length + 1} animals` }).waitFor()
    await page.getByTestId('forced-rule').filter({ hasText: 'GET /pets → 503 (2 more)' }).waitFor()
    await page.getByTestId('latency').filter({ hasText: '100 to 900 ms on every answer' }).waitFor()
    await page.getByTestId('status-filter').selectOption('sold')
    await page.getByTestId('animal-row').filter({ hasText: 'Through the other replica' }).waitFor()
    expect(await page.content()).not.toContain(KEY)

    await page.getByTestId('status-filter').selectOption('')
    await page.getByTestId('reset').click()
    await page.getByTestId('action-result').filter({ hasText: 'Back to the fixture.' }).waitFor()
    await page.getByTestId('counts').filter({ hasText: `${fixture.length} animals` }).waitFor()
    await page.getByTestId('forced').filter({ hasText: 'none' }).waitFor()
    // Reset through the first replica, seen through the second.
    expect(await (await call('/__control/forced')).json()).toEqual({ rules: [] })
    expect(await (await call('/__control/latency')).json()).toEqual({})
    expect(((await (await call('/v1/pets?limit=100')).json()) as unknown[]).length).toBe(fixture.length)
    expect(outside).toEqual([])
    await page.context().close()
  })
})
