// The component under test: the animals, or the error the service gave, in an element.
export async function showPets(element: HTMLElement, options: { apiKey: string; prefer?: string }): Promise<void> {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}` }
  if (options.prefer !== undefined) headers.Prefer = options.prefer
  const response = await fetch('/v1/pets?limit=100', { headers })
  const body = await response.json()
  if (!response.ok) {
    element.replaceChildren(Object.assign(document.createElement('p'), { role: 'alert', textContent: `${body.status}: ${body.message}` }))
    return
  }
  element.replaceChildren(...body.map((pet: { name: string }) => Object.assign(document.createElement('li'), { textContent: pet.name })))
}
