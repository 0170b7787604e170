// Every test gets its own stateful animals service: a fresh fake behind @msw/playwright's routes.
import { defineNetworkFixture, type NetworkFixture } from '@msw/playwright'
import { test as base } from '@playwright/test'
import { createFake, createHandlers, type Fake } from 'animals-mock/msw'

export const test = base.extend<{ fake: Fake; network: NetworkFixture; app: string }>({
  fake: async ({}, use) => {
    await use(createFake())
  },
  // The page calls its own origin's /v1, where the routes below answer.
  app: async ({}, use) => use('/?key=app-key'),
  network: [
    // The handlers run in the test's Node process, where a base URL must be absolute: the app's own
    // origin (Playwright's baseURL) followed by /v1, as the page calls it.
    async ({ context, fake, baseURL }, use) => {
      const handlers = createHandlers({ baseUrl: new URL('/v1', baseURL).href, fake })
      // The page itself comes from the app's server: only /v1 is the fake's.
      const network = defineNetworkFixture({ context, handlers, onUnhandledRequest: 'bypass' })
      await network.enable()
      await use(network)
      await network.disable()
    },
    { auto: true },
  ],
})
export { expect } from '@playwright/test'
