// One fake for the whole run (`animals-mock serve --isolate -- playwright test` puts its API base in
// ANIMALS_MOCK_URL); each worker has its own key, so its own store, reset before every test.
import { test as base } from '@playwright/test'

function apiBase(): string {
  const api = process.env.ANIMALS_MOCK_URL
  if (api === undefined) throw new Error('run under `animals-mock serve --isolate -- playwright test`')
  return api
}

export const test = base.extend<{ key: string; app: string }, { workerKey: string }>({
  workerKey: [async ({}, use, workerInfo) => use(`worker-${workerInfo.parallelIndex}`), { scope: 'worker' }],
  key: [
    async ({ workerKey }, use) => {
      // The control API names the store by the same bearer key the app sends; a change of state
      // needs a JSON content type, which no web page can send it across origins without asking.
      const headers = { Authorization: `Bearer ${workerKey}`, 'Content-Type': 'application/json' }
      const reset = await fetch(new URL('/__control/reset', apiBase()), { method: 'POST', headers })
      if (!reset.ok) throw new Error(`reset answered ${reset.status}: ${await reset.text()}`)
      await use(workerKey)
    },
    { auto: true },
  ],
  app: async ({ key }, use) => use(`/?${new URLSearchParams({ api: apiBase(), key })}`),
})
export { expect } from '@playwright/test'
