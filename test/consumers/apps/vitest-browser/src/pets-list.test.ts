import { setupWorker } from 'msw/browser'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { bypassUnhandledRequests, createFake, createHandlers } from 'animals-mock/msw'
import { showPets } from './pets-list.js'

// In the page, a relative base resolves against the page's origin, where the worker intercepts.
const fake = createFake()
const worker = setupWorker(...createHandlers({ baseUrl: '/v1', fake }))
// The page also loads Vitest's own modules: only /v1 is the fake's.
beforeAll(() => worker.start({ quiet: true, ...bypassUnhandledRequests }))
afterEach(() => fake.reset())
afterAll(() => worker.stop())

it('runs in Chromium, behind msw\'s service worker', () => {
  expect(navigator.userAgent).toMatch(/Chrome\//)
  expect(navigator.serviceWorker.controller).not.toBeNull()
})

it('lists the default animals, then one more after a creation', async () => {
  const list = document.body.appendChild(document.createElement('ul'))
  await showPets(list, { apiKey: 'k' })
  expect(list.children).toHaveLength(30)
  const created = await fetch('/v1/pets', { method: 'POST', headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Browser', categoryId: 1 }) })
  expect(created.status).toBe(201)
  await showPets(list, { apiKey: 'k' })
  expect(list.lastElementChild?.textContent).toBe('Browser')
})

it('starts the next test from the default animals again', async () => {
  const list = document.body.appendChild(document.createElement('ul'))
  await showPets(list, { apiKey: 'k' })
  expect(list.children).toHaveLength(30)
})

it('shows the Error body of a 401 and of a 503 chosen through Prefer', async () => {
  const box = document.body.appendChild(document.createElement('div'))
  await showPets(box, { apiKey: '' })
  expect(box.textContent).toMatch(/^401: /)
  await showPets(box, { apiKey: 'k', prefer: 'code=503' })
  expect(box.textContent).toMatch(/^503: /)
})
