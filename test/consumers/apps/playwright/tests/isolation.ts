// Tests in two workers at once, each adding its own animal: each starts from the 30 default animals
// and sees its own and never the other's. A barrier holds each pair until both have added, so they
// overlap. A service shared across a worker's tests would show the earlier test's animal, and one
// shared by both workers would list the other's. Each suite gives `app`: where its page is opened.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, type Page, type PlaywrightTestArgs, type TestType } from '@playwright/test'

async function addAndWaitForTheOther(page: Page, app: string, barrier: string, mine: string, theirs: string): Promise<void> {
  await page.goto(app)
  await expect(page.getByRole('status')).toHaveText('30 animals')
  await page.getByLabel('name').fill(mine)
  await page.getByRole('button', { name: 'Add' }).click()
  await expect(page.getByRole('status')).toHaveText('31 animals')
  writeFileSync(join(barrier, mine), '')
  await expect.poll(() => existsSync(join(barrier, theirs)), { timeout: 30_000 }).toBe(true)
  await page.reload()
  await expect(page.getByRole('status')).toHaveText('31 animals')
  await expect(page.getByRole('listitem').filter({ hasText: mine })).toHaveCount(1)
  await expect(page.getByRole('listitem').filter({ hasText: theirs })).toHaveCount(0)
}

/** A suite's tests over its own `test`, whose `app` fixture is the page against the suite's service. */
export function isolationTests(test: TestType<PlaywrightTestArgs & { app: string }, object>, suite: string): void {
  const barrier = join('test-results', 'barrier', suite)
  mkdirSync(barrier, { recursive: true })
  for (const [mine, theirs] of [['Alpha', 'Beta'], ['Beta', 'Alpha'], ['Gamma', 'Delta'], ['Delta', 'Gamma']] as const) {
    test(`adds ${mine} and never sees ${theirs}`, async ({ page, app }) => {
      await addAndWaitForTheOther(page, app, barrier, mine, theirs)
    })
  }

  test('meets the Error body a real service would send', async ({ page, app }) => {
    await page.goto(app.replace(/key=[^&]*/, 'key='))
    await expect(page.getByRole('status')).toHaveText(/^error 401: /)
  })
}
