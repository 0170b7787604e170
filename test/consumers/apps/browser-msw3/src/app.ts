// The app's own start: what the README's snippet calls once the worker is ready (src/main.ts is
// that snippet, written by the test from the README).
export async function renderApp(): Promise<void> {
  // A request outside the API: the worker lets it through, and msw says nothing of it.
  const config = await fetch('/config.json')
  const headers = { Authorization: 'Bearer browser-key', 'Content-Type': 'application/json' }
  const created = await fetch('/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name: 'Made in the browser', categoryId: 2 }) })
  const listed = (await (await fetch('/v1/pets?limit=100', { headers })).json()) as { name: string }[]
  const list = document.querySelector('[data-testid="animals"]') as HTMLElement
  for (const pet of listed) {
    const item = document.createElement('li')
    item.textContent = pet.name
    list.append(item)
  }
  const status = document.querySelector('[data-testid="status"]') as HTMLElement
  status.textContent = `config ${config.status}, created ${created.status}, listed ${listed.length}`
}
