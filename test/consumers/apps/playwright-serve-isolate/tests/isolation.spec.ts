// Tests in two workers at once against one fake, each adding its own animal: each starts from the
// 30 default animals and sees its own and never the other's. A barrier holds each pair until both
// have added, so they overlap; without the reset a worker's second test would see its first test's
// animal, and with one key for both workers each would list the other's.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './fixtures.js'

const BARRIER = join(process.env.BARRIER_DIR ?? 'test-results', 'barrier')
mkdirSync(BARRIER, { recursive: true })

async function addAndWaitForTheOther(page: import('@playwright/test').Page, app: string, mine: string, theirs: string): Promise<void> {
  await page.goto(app)
  await expect(page.getByRole('status')).toHaveText('30 animals')
  await page.getByLabel('name').fill(mine)
  await page.getByRole('button', { name: 'Add' }).click()
  await expect(page.getByRole('status')).toHaveText('31 animals')
  writeFileSync(join(BARRIER, mine), '')
  await expect.poll(() => existsSync(join(BARRIER, theirs)), { timeout: 30_000 }).toBe(true)
  await page.reload()
  await expect(page.getByRole('status')).toHaveText('31 animals')
  await expect(page.getByRole('listitem').filter({ hasText: mine })).toHaveCount(1)
  await expect(page.getByRole('listitem').filter({ hasText: theirs })).toHaveCount(0)
}

for (const [mine, theirs] of [['Alpha', 'Beta'], ['Beta', 'Alpha'], ['Gamma', 'Delta'], ['Delta', 'Gamma']] as const) {
  test(`adds ${mine} and never sees ${theirs}`, async ({ page, app }) => {
    await addAndWaitForTheOther(page, app, mine, theirs)
  })
}

test('meets the Error body a real service would send', async ({ page, app }) => {
  await page.goto(app.replace(/key=[^&]*/, 'key='))
  await expect(page.getByRole('status')).toHaveText(/^error 401: /)
})
