import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isolationTests } from '../isolation.js'
import { expect, test } from './fixtures.js'

isolationTests(test, 'isolate')

// Two workers at once, each changing its own store's controls with its own key: one forces a 503,
// the other sets a latency; each then reads its own rules, latency and journal, and neither sees
// nor meets the other's. A barrier holds each until both have set theirs up.
const barrier = join('test-results', 'barrier', 'controls')
mkdirSync(barrier, { recursive: true })

async function control(key: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<unknown> {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }
  const body = init.body === undefined ? undefined : JSON.stringify(init.body)
  const response = await fetch(new URL(`/__control${path}`, process.env.ANIMALS_MOCK_URL), { method: init.method ?? 'GET', headers, body })
  return response.status === 204 ? response.status : response.json()
}

async function waitFor(theirs: string): Promise<string> {
  await expect.poll(() => existsSync(join(barrier, theirs)), { timeout: 30_000 }).toBe(true)
  return readFileSync(join(barrier, theirs), 'utf8')
}

test('forces a 503 on its own store, which the other worker never meets nor removes', async ({ page, app, key }) => {
  const rule = (await control(key, '/forced', { method: 'POST', body: { status: 503, path: '/pets' } })) as { id: number }
  writeFileSync(join(barrier, 'forcer'), String(rule.id))
  await waitFor('delayer')
  await page.goto(app)
  await expect(page.getByRole('status')).toHaveText(/^error 503: /)
  await expect(waitFor('delayer-done')).resolves.toBe('done')
  expect(await control(key, '/forced')).toMatchObject({ rules: [{ id: rule.id, status: 503 }] })
  expect(await control(key, '/latency')).toEqual({})
  const { entries } = (await control(key, '/journal')) as { entries: { status: number; delayMs: number }[] }
  expect(entries.map((entry) => [entry.status, entry.delayMs])).toEqual([[503, 0]])
})

test('delays its own answers, and never gets the other worker\'s 503', async ({ page, app, key }) => {
  await control(key, '/latency', { method: 'PUT', body: { ms: 300 } })
  writeFileSync(join(barrier, 'delayer'), '')
  const theirRule = await waitFor('forcer')
  // The other worker's rule, by its id, is not this key's to remove.
  expect(await control(key, `/forced/${theirRule}`, { method: 'DELETE' })).toMatchObject({ code: 'rule_not_found' })
  await page.goto(app)
  await expect(page.getByRole('status')).toHaveText('30 animals')
  expect(await control(key, '/forced')).toEqual({ rules: [] })
  expect(await control(key, '/latency')).toEqual({ ms: 300 })
  const { entries } = (await control(key, '/journal')) as { entries: { status: number; delayMs: number }[] }
  expect(entries.map((entry) => [entry.status, entry.delayMs])).toEqual([[200, 300]])
  writeFileSync(join(barrier, 'delayer-done'), 'done')
})
