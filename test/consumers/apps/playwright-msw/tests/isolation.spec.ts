// Tests in two workers at once, each adding its own animal: each starts from the 30 default animals
// and sees its own and never the other's. A barrier holds each pair until both have added, so they
// overlap; a fake shared across a worker's tests would show the earlier test's animal, and one
// shared by both would list the other's.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './fixtures.js'

const BARRIER = join(process.env.BARRIER_DIR ?? 'test-results', 'barrier')
mkdirSync(BARRIER, { recursive: true })

async function addAndWaitForTheOther(page: import('@playwright/test').Page, mine: string, theirs: string): Promise<void> {
  await page.goto('/')
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
  test(`adds ${mine} and never sees ${theirs}`, async ({ page, fake }) => {
    await addAndWaitForTheOther(page, mine, theirs)
    expect(fake.store.size).toBe(31)
  })
}

test('meets the Error body a real service would send', async ({ page, network }) => {
  void network
  await page.goto('/?key=')
  await expect(page.getByRole('status')).toHaveText(/^error 401: /)
})
