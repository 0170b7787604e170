import { setupWorker } from 'msw/browser'
// An app of your own imports these from 'animals-mock/msw'.
import { createFake, createHandlers } from '../../../src/msw/index.js'

/**
 * Starts msw's service worker with the fake behind `/v1` on this page's origin; resolves once the
 * worker controls the page, so the app's first request is already served by the fake.
 */
export async function startMocks(): Promise<void> {
  const fake = createFake()
  const worker = setupWorker(...createHandlers({ baseUrl: '/v1', fake }))
  await worker.start({ onUnhandledRequest: 'bypass' })
}
