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
  // The page's own files are not the fake's: let them through (msw 2 and msw 3 name it differently).
  const passThrough = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as const
  await worker.start(passThrough)
}
