import { coreOf } from '../../src/fake/assemble-fake.js'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildExample } from '../../examples/browser/build.js'
import { serveStatic, type StaticServer } from '../../examples/browser/serve.js'
import { createFake, DEFAULT_PETS, type Fake, type FakeOptions } from '../../src/create-fake.js'
import { createControl } from '../../src/fake/control.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createPages } from '../../src/site/pages.js'
import { createSite } from '../../src/site/site.js'
import { hasChromium, keepToOrigin, launchChromium, screenshotForReadme } from '../support/browser.js'
import { shippedPets } from '../support/fixtures.js'

describe('the dashboard', () => {
  const KEY = 'dash-key-3f9b27'
  const fixture = shippedPets('default')
  const servers: RunningServer[] = []
  let fake: Fake
  let server: RunningServer
  let browser: Browser

  async function serve(options: FakeOptions, token?: string): Promise<{ fake: Fake; server: RunningServer }> {
    const served = createFake({ pets: fixture, ...options })
    const control = createControl({ core: coreOf(served), ...(token === undefined ? {} : { token }) })
    const pages = createPages({ keys: served.keys, control: token === undefined ? 'open' : 'token' })
    const running = await startServer({ app: createSite({ api: served, control, pages }) })
    servers.push(running)
    return { fake: served, server: running }
  }

  beforeAll(async () => {
    if (!hasChromium) return
    ;({ fake, server } = await serve({ keys: [KEY] }))
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await Promise.all(servers.map((running) => running.close()))
  })
  beforeEach(() => {
    if (!hasChromium) return
    fake.reset()
    fake.clearJournal()
    fake.unforce()
    fake.setLatency({})
  })

  /**
   * Opens the dashboard in a fresh context that may reach the fake only; returns what left it. With a
   * key, it is given where the dashboard asks for one (the fake runs with --api-key: its controls need one).
   */
  async function openDashboard(origin: string, key?: string, viewport = { width: 1280, height: 1080 }): Promise<{ page: Page; outside: string[] }> {
    const context = await browser.newContext({ viewport })
    const outside = await keepToOrigin(context, origin)
    const page = await context.newPage()
    // Fail with the locator that waited, well inside the test's own timeout.
    page.setDefaultTimeout(8000)
    page.on('pageerror', (error) => outside.push(`page error: ${error.message}`))
    await page.goto(`${origin}/dashboard`)
    if (key !== undefined) {
      await page.getByTestId('token-form').waitFor()
      await page.getByTestId('token-input').fill(key)
      await page.getByTestId('token-submit').click()
    }
    return { page, outside }
  }

  function createAnimal(origin: string, key: string, body: unknown): Promise<Response> {
    return fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  }

  const names = (page: Page): Promise<string[]> => page.getByTestId('animal-row').locator('td:nth-child(2)').allInnerTexts()

  it.skipIf(!hasChromium)('shows a created animal in the journal and the store, and the fixture again after reset', async () => {
    const { page, outside } = await openDashboard(server.url, KEY)
    await page.getByTestId('counts').filter({ hasText: `${fixture.length} animals` }).waitFor()
    expect(await names(page)).toEqual(fixture.slice(0, 20).map((pet) => pet.name))

    // A name is user input: it must show as text, never as markup.
    const name = '<img src=x onerror="window.injected=1">Biscuit & Co'
    const created = await createAnimal(server.url, KEY, { name, categoryId: 3, status: 'pending' })
    expect(created.status).toBe(201)
    const row = page.getByTestId('journal-row').filter({ hasText: 'POST' }).filter({ hasText: '/v1/pets' })
    await row.filter({ hasText: '201' }).waitFor()
    await page.getByTestId('counts').filter({ hasText: `${fixture.length + 1} animals` }).waitFor()
    await page.getByTestId('next-page').click()
    await page.getByTestId('animal-row').filter({ hasText: name }).waitFor()
    expect(await page.getByTestId('page-info').innerText()).toBe(`21–${fixture.length + 1} of ${fixture.length + 1}`)

    await page.getByTestId('status-filter').selectOption('pending')
    const pending = fixture.filter((pet) => pet.status === 'pending').length + 1
    await page.getByTestId('page-info').filter({ hasText: `1–${pending} of ${pending}` }).waitFor()
    expect(await names(page)).toContain(name)
    const statuses = await page.getByTestId('animal-row').locator('td:nth-child(4)').allInnerTexts()
    expect(new Set(statuses)).toEqual(new Set(['pending']))

    await row.click()
    const detail = await page.getByTestId('journal-detail').innerText()
    expect(detail).toContain('authorization: Bearer [redacted]')
    expect(detail).toContain('Biscuit & Co')
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.evaluate(() => 'injected' in window)).toBe(false)
    expect(await page.content()).not.toContain(KEY)

    await page.getByTestId('status-filter').selectOption('')
    await page.getByTestId('reset').click()
    await page.getByTestId('counts').filter({ hasText: `${fixture.length} animals` }).waitFor()
    await page.getByTestId('action-result').filter({ hasText: 'Back to the fixture.' }).waitFor()
    expect(await names(page)).toEqual(fixture.slice(0, 20).map((pet) => pet.name))
    expect(fake.snapshot()).toEqual(fixture)
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('seeds animals and clears the journal from its buttons', async () => {
    await createAnimal(server.url, KEY, { name: 'Journaled', categoryId: 1 })
    const { page, outside } = await openDashboard(server.url, KEY)
    await page.getByTestId('journal-row').first().waitFor()
    await page.getByTestId('seed-count').fill('5')
    await page.getByTestId('seed').click()
    await page.getByTestId('counts').filter({ hasText: `${fixture.length + 6} animals` }).waitFor()
    expect(fake.store.size).toBe(fixture.length + 6)
    await page.getByTestId('clear-journal').click()
    await page.getByTestId('journal-empty').waitFor()
    expect(await page.getByTestId('journal-row').count()).toBe(0)
    expect(fake.journal()).toEqual([])
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('shows the forced responses and the latency set, and removes a rule', async () => {
    const control = (path: string, method: string, body: unknown) =>
      fetch(`${server.url}/__control${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, body: JSON.stringify(body) })
    expect((await control('/forced', 'POST', { method: 'GET', path: '/pets', status: 503, times: 2 })).status).toBe(201)
    expect((await control('/latency', 'PUT', { minMs: 100, maxMs: 900 })).status).toBe(200)
    const { page, outside } = await openDashboard(server.url, KEY)
    const rule = page.getByTestId('forced-rule').filter({ hasText: 'GET /pets → 503 (2 more)' })
    await rule.waitFor()
    expect(await page.getByTestId('latency').innerText()).toBe('100 to 900 ms on every answer')
    await rule.getByRole('button', { name: 'remove' }).click()
    await page.getByTestId('forced').filter({ hasText: 'none' }).waitFor()
    expect(fake.forcedRules()).toEqual([])
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('creates forced responses and sets the latency from its forms', async () => {
    const { page, outside } = await openDashboard(server.url, KEY)
    await page.getByTestId('forced').filter({ hasText: 'none' }).waitFor()
    await page.getByTestId('force-method').selectOption('GET')
    await page.getByTestId('force-path').fill('/pets/*')
    await page.getByTestId('force-status').fill('503')
    await page.getByTestId('force-code').fill('down_for_test')
    await page.getByTestId('force-message').fill('Down for a test.')
    await page.getByTestId('force-times').fill('2')
    await page.getByTestId('force-delay').fill('40')
    await page.getByTestId('force-submit').click()
    await page.getByTestId('forced-rule').filter({ hasText: 'GET /pets/* → wait 40 ms, 503 down_for_test (2 more)' }).waitFor()
    expect(fake.forcedRules()).toMatchObject([
      { method: 'GET', path: '/pets/*', status: 503, code: 'down_for_test', message: 'Down for a test.', times: 2, delayMs: 40 },
    ])
    const forcedAnswer = await fetch(`${server.url}/v1/pets/1`, { headers: { authorization: `Bearer ${KEY}` } })
    expect(forcedAnswer.status).toBe(503)
    expect(await forcedAnswer.json()).toEqual({ code: 'down_for_test', message: 'Down for a test.', status: 503 })

    // A rule that only drops: the form leaves the empty fields out.
    await page.getByTestId('force-form').evaluate((form: HTMLFormElement) => form.reset())
    await page.getByTestId('force-method').selectOption('POST')
    await page.getByTestId('force-path').fill('/pets')
    await page.getByTestId('force-drop').check()
    await page.getByTestId('force-submit').click()
    await page.getByTestId('forced-rule').nth(1).waitFor()
    expect(fake.forcedRules()[1]).toEqual(expect.objectContaining({ method: 'POST', path: '/pets', drop: true }))
    expect(Object.keys(fake.forcedRules()[1] ?? {}).sort()).toEqual(['drop', 'id', 'method', 'path', 'tenant'])

    // Bad input is the control API's message, and adds nothing.
    await page.getByTestId('force-form').evaluate((form: HTMLFormElement) => form.reset())
    await page.getByTestId('force-path').fill('pets')
    await page.getByTestId('force-status').fill('503')
    await page.getByTestId('force-submit').click()
    await page.getByTestId('action-result').filter({ hasText: "Field 'path' must start with /" }).waitFor()
    expect(await page.getByTestId('action-result').getAttribute('class')).toContain('bad')
    expect(fake.forcedRules()).toHaveLength(2)

    await page.getByTestId('latency-min').fill('100')
    await page.getByTestId('latency-max').fill('900')
    await page.getByTestId('latency-set').click()
    await page.getByTestId('latency').filter({ hasText: '100 to 900 ms on every answer' }).waitFor()
    expect(fake.latency).toEqual({ minMs: 100, maxMs: 900 })
    await page.getByTestId('latency-max').fill('')
    await page.getByTestId('latency-min').fill('800')
    await page.getByTestId('latency-set').click()
    await page.getByTestId('latency').filter({ hasText: '800 ms on every answer' }).waitFor()
    expect(fake.latency).toEqual({ ms: 800 })
    await page.getByTestId('latency-none').click()
    await page.getByTestId('action-result').filter({ hasText: 'No latency.' }).waitFor()
    expect(fake.latency).toEqual({})
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('fits a phone: nothing overflows 390 px, the controls, rules and statuses in view', async () => {
    fake.force({ method: 'POST', path: '/pets', status: 400, code: 'name_taken', message: 'That name is taken by another animal.' })
    await fetch(`${server.url}/v1/pets?limit=3`, { headers: { authorization: `Bearer ${KEY}` } })
    const { page, outside } = await openDashboard(server.url, KEY, { width: 390, height: 844 })
    await page.getByTestId('journal-row').first().waitFor()
    await page.getByTestId('forced-rule').first().waitFor()
    await page.getByTestId('animal-row').first().waitFor()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBe(0)
    for (const locator of [
      page.getByTestId('seed'),
      page.getByTestId('force-submit'),
      page.getByTestId('forced-rule').first(),
      page.getByTestId('journal').locator('th:nth-child(6)'),
      page.getByTestId('journal-row').first().locator('td:nth-child(6)'),
      page.getByTestId('animals').locator('th:nth-child(4)'),
      page.getByTestId('page-size'),
      page.getByTestId('jump'),
      page.getByTestId('find'),
      page.getByTestId('find-name'),
      page.getByTestId('journal-method'),
      page.getByTestId('journal-status'),
      page.getByTestId('journal-path'),
    ]) {
      const box = await locator.boundingBox()
      expect(box).not.toBeNull()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(390)
    }
    await screenshotForReadme(page, 'dashboard-phone')
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('marks refused, forced, dropped and delayed requests in the journal', async () => {
    const { page, outside } = await openDashboard(server.url, KEY)
    const control = (path: string, method: string, body: unknown) =>
      fetch(`${server.url}/__control${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, body: JSON.stringify(body) })
    const get = (path: string, key = KEY) => fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${key}` } })
    expect((await get('/pets?status=sold&limit=5')).status).toBe(200)
    expect((await createAnimal(server.url, KEY, { name: 'Biscuit', categoryId: 3, status: 'available' })).status).toBe(201)
    expect((await get('/pets', 'not-a-key')).status).toBe(401)
    await control('/forced', 'POST', { method: 'GET', path: '/pets/*', status: 503, times: 1 })
    expect((await get('/pets/1')).status).toBe(503)
    await control('/forced', 'POST', { method: 'GET', path: '/pets/2', drop: true, times: 1 })
    await expect(get('/pets/2')).rejects.toThrow()
    await control('/latency', 'PUT', { ms: 20 })
    expect((await get('/pets/3')).status).toBe(200)
    await control('/latency', 'PUT', {})
    // A rule that only delays: the API's own 404 comes after it.
    await control('/forced', 'POST', { method: 'GET', path: '/pets/999', delayMs: 30, times: 1 })
    expect((await get('/pets/999')).status).toBe(404)
    expect((await fetch(`${server.url}/v1/pets`, { headers: { authorization: `Bearer ${KEY}`, prefer: 'code=503' } })).status).toBe(503)
    await control('/latency', 'PUT', { ms: 20 })
    await control('/forced', 'POST', { method: 'POST', path: '/pets', status: 400, code: 'name_taken' })

    const journal = page.getByTestId('journal-row')
    await journal.filter({ hasText: 'Prefer' }).waitFor()
    expect(await journal.locator('td:nth-child(6)').allInnerTexts()).toEqual([
      '503 · Prefer',
      '404 · delayed 30 ms by a rule',
      '200',
      'dropped by a rule',
      '503 · forced',
      '401',
      '201',
      '200',
    ])
    await page.getByTestId('forced-rule').filter({ hasText: 'POST /pets → 400 name_taken (until removed)' }).waitFor()
    await page.getByTestId('latency').filter({ hasText: '20 ms on every answer' }).waitFor()
    await page.getByTestId('counts').filter({ hasText: `${fixture.length + 1} animals` }).waitFor()
    await screenshotForReadme(page, 'dashboard')
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('shows a request and the answer it got, credentials redacted, when its row is clicked', async () => {
    const { page, outside } = await openDashboard(server.url, KEY)
    expect((await createAnimal(server.url, KEY, { name: 'Answered', categoryId: 2 })).status).toBe(201)
    const row = page.getByTestId('journal-row').filter({ hasText: 'POST' })
    await row.waitFor()
    await row.click()
    const detail = page.getByTestId('journal-detail')
    await detail.filter({ hasText: '── answer ──' }).waitFor()
    const text = await detail.innerText()
    const [request = '', answer = ''] = text.split('── answer ──')
    expect(request).toContain('POST /v1/pets')
    expect(request).toContain('authorization: Bearer [redacted]')
    expect(request).toContain('{"name":"Answered","categoryId":2}')
    expect(answer).toMatch(/^\s*201\n/)
    expect(answer).toContain(`location: /v1/pets/${fixture.length + 1}`)
    expect(answer).toContain('content-type: application/json')
    expect(answer).toContain(`{"id":${fixture.length + 1},"name":"Answered","categoryId":2}`)
    expect(text).not.toContain(KEY)
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('filters the requests by method, status and path', async () => {
    const { page, outside } = await openDashboard(server.url, KEY)
    const get = (path: string) => fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${KEY}` } })
    await get('/pets?limit=1')
    await get('/pets/1')
    await get('/pets/99999')
    await createAnimal(server.url, KEY, { name: 'Filtered', categoryId: 1 })
    const rows = page.getByTestId('journal-row')
    await rows.nth(3).waitFor()
    // The dashboard reads the journal once a second: a filter shows within two reads.
    const paths = () => rows.locator('td:nth-child(5)').allInnerTexts()
    await page.getByTestId('journal-method').selectOption('POST')
    await expect.poll(paths, { timeout: 6000 }).toEqual(['/v1/pets'])
    await page.getByTestId('journal-method').selectOption('')
    await page.getByTestId('journal-status').fill('404')
    await page.getByTestId('journal-status').dispatchEvent('change')
    await expect.poll(paths, { timeout: 6000 }).toEqual(['/v1/pets/99999'])
    await page.getByTestId('journal-status').fill('')
    await page.getByTestId('journal-path').fill('/v1/pets/1')
    await page.getByTestId('journal-path').dispatchEvent('change')
    await expect.poll(paths, { timeout: 6000 }).toEqual(['/v1/pets/1'])
    // New requests that match arrive under the filter; others do not.
    await get('/pets/1')
    await get('/pets/2')
    await expect.poll(paths, { timeout: 6000 }).toEqual(['/v1/pets/1', '/v1/pets/1'])
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('finds animals among 10,000 by id, by name and a page size, with each category\'s name', async () => {
    const seeded = await serve({ pets: shippedPets('large') })
    const { page, outside } = await openDashboard(seeded.server.url)
    await page.getByTestId('page-info').filter({ hasText: '1–20 of 10000' }).waitFor()
    // The category: the number the spec has, and the fake's own name for it.
    const first = shippedPets('large')[0]
    const category = await page.getByTestId('animal-row').first().locator('td:nth-child(3)').innerText()
    expect(category).toBe(`${first?.categoryId} · ${['Dogs', 'Cats', 'Birds', 'Fish', 'Rabbits', 'Rodents', 'Reptiles', 'Horses'][Number(first?.categoryId) - 1]}`)
    await page.getByTestId('page-size').selectOption('100')
    await page.getByTestId('page-info').filter({ hasText: '1–100 of 10000' }).waitFor()
    expect(await page.getByTestId('animal-row').count()).toBe(100)
    await page.getByTestId('jump-id').fill('7777')
    await page.getByTestId('jump').click()
    await page.getByTestId('page-info').filter({ hasText: '7777–7876 of 10000' }).waitFor()
    expect(await page.getByTestId('animal-row').first().locator('td:nth-child(1)').innerText()).toBe('7777')
    await page.getByTestId('next-page').click()
    await page.getByTestId('page-info').filter({ hasText: '7877–7976 of 10000' }).waitFor()
    // By name: any part, any case; the count says how many, the pages go through them.
    const wanted = shippedPets('large').filter((pet) => pet.name.toLowerCase().includes('bell'))
    expect(wanted.length).toBeGreaterThan(100)
    await page.getByTestId('find-name').fill('BELL')
    await page.getByTestId('find').click()
    await page.getByTestId('counts').filter({ hasText: `${wanted.length} animals named like "BELL"` }).waitFor()
    expect(await names(page)).toEqual(wanted.slice(0, 100).map((pet) => pet.name))
    await page.getByTestId('next-page').click()
    await page.getByTestId('page-info').filter({ hasText: `101–${Math.min(200, wanted.length)} of ${wanted.length}` }).waitFor()
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('asks for the control token when the fake requires one, and never shows it', async () => {
    const token = 'ctl-token-81d4e2'
    const guarded = await serve({}, token)
    const { page, outside } = await openDashboard(guarded.server.url)
    await page.getByTestId('token-form').waitFor()
    // Nothing can be pressed before the token is given.
    expect(await page.getByTestId('controls').evaluate((fieldset: HTMLFieldSetElement) => fieldset.disabled)).toBe(true)
    for (const control of ['reset', 'seed', 'clear-journal', 'force-submit', 'latency-set', 'latency-none']) {
      expect(await page.getByTestId(control).isDisabled()).toBe(true)
    }
    await page.getByTestId('token-input').fill('wrong-token')
    await page.getByTestId('token-submit').click()
    await page.getByTestId('token-error').filter({ hasText: 'refused' }).waitFor()
    await page.getByTestId('token-input').fill(token)
    await page.getByTestId('token-submit').click()
    await page.getByTestId('counts').filter({ hasText: `${fixture.length} animals` }).waitFor()
    await page.getByTestId('reset').waitFor({ state: 'visible' })
    expect(await page.getByTestId('reset').isEnabled()).toBe(true)
    expect(await page.getByTestId('force-submit').isEnabled()).toBe(true)
    expect(await page.getByTestId('token-form').isHidden()).toBe(true)
    expect(await page.getByTestId('token-input').inputValue()).toBe('')
    expect(await page.content()).not.toContain(token)
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('under isolation, shows a store chosen by its label, never by its key', async () => {
    const isolated = await serve({ isolate: true })
    const origin = isolated.server.url
    await createAnimal(origin, 'job-key-alpha', { name: 'Alpha pet', categoryId: 1 })
    await createAnimal(origin, 'job-key-beta', { name: 'Beta pet', categoryId: 1 })
    const { page, outside } = await openDashboard(origin)
    await page.getByTestId('store-note').filter({ hasText: 'pick one' }).waitFor()
    await page.getByTestId('journal-row').nth(1).waitFor()
    const picker = page.getByTestId('store-picker')
    await picker.locator('option', { hasText: 'tenant-2' }).waitFor({ state: 'attached' })
    await picker.selectOption('tenant-2')
    await page.getByTestId('page-info').filter({ hasText: `of ${fixture.length + 1}` }).waitFor()
    await page.getByTestId('next-page').click()
    await page.getByTestId('animal-row').filter({ hasText: 'Beta pet' }).waitFor()
    expect(await names(page)).not.toContain('Alpha pet')
    const tenants = await page.getByTestId('journal-row').locator('td:nth-child(3)').allInnerTexts()
    expect(new Set(tenants)).toEqual(new Set(['tenant-2']))
    expect(await page.content()).not.toContain('job-key-')
    expect(outside).toEqual([])
    await page.context().close()
  })

  it.skipIf(!hasChromium)('under isolation with team keys, shows a team\'s key its own store alone, with no store to pick', async () => {
    const teams = await serve({ isolate: true, keys: ['team-key-alpha', 'team-key-beta'] })
    const origin = teams.server.url
    await createAnimal(origin, 'team-key-alpha', { name: 'Alpha pet', categoryId: 1 })
    await createAnimal(origin, 'team-key-beta', { name: 'Beta pet', categoryId: 1 })
    const { page, outside } = await openDashboard(origin, 'team-key-beta')
    await page.getByTestId('counts').filter({ hasText: `${fixture.length + 1} animals` }).waitFor()
    expect(await page.getByTestId('store-picker-label').isHidden()).toBe(true)
    await page.getByTestId('next-page').click()
    await page.getByTestId('animal-row').filter({ hasText: 'Beta pet' }).waitFor()
    expect(await names(page)).not.toContain('Alpha pet')
    expect(outside).toEqual([])
    await page.context().close()
  })
})

describe('the API reference', () => {
  const KEY = 'docs-key-5d1c9a'
  let fake: Fake
  let server: RunningServer
  let browser: Browser

  beforeAll(async () => {
    if (!hasChromium) return
    fake = createFake({ pets: shippedPets('default'), keys: [KEY] })
    const pages = createPages({ keys: fake.keys, control: 'open' })
    server = await startServer({ app: createSite({ api: fake, control: createControl({ core: coreOf(fake) }), pages }) })
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
    // The fake is the one server: the contract's own is the same relative /v1.
    const servers = page.locator('.servers select option')
    await servers.first().waitFor({ state: 'attached' })
    expect((await servers.allInnerTexts()).map((label) => label.trim())).toEqual([
      '/v1 - This fake (animals-mock)',
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
})

describe("the browser example, served by the fake in msw's worker", () => {
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
})
