// An app's own entry: mocks first (in development), then the app's code calls its API as usual.
import { setupWorker } from 'msw/browser'
import { createFake, createHandlers } from 'animals-mock/msw'

const worker = setupWorker(...createHandlers({ baseUrl: '/v1', fake: createFake() }))
await worker.start({ onUnhandledFrame: 'bypass', quiet: true })

const headers = { authorization: 'Bearer browser-key', 'content-type': 'application/json' }
const created = await fetch('/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name: 'Made in the browser', categoryId: 2 }) })
const listed = (await (await fetch('/v1/pets?limit=100', { headers })).json()) as { name: string }[]
const list = document.querySelector('[data-testid="animals"]') as HTMLElement
for (const pet of listed) {
  const item = document.createElement('li')
  item.textContent = pet.name
  list.append(item)
}
;(document.querySelector('[data-testid="status"]') as HTMLElement).textContent = `created ${created.status}, listed ${listed.length}`
