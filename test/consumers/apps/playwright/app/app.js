// The app under test: lists the animals and adds one, against `?api=` (default /v1) with `?key=`.
const query = new URLSearchParams(location.search)
const api = query.get('api') ?? '/v1'
const headers = { Authorization: `Bearer ${query.get('key') ?? 'app-key'}`, 'Content-Type': 'application/json' }

async function show() {
  const response = await fetch(`${api}/pets?limit=100`, { headers })
  const state = document.getElementById('state')
  if (!response.ok) {
    state.textContent = `error ${response.status}: ${(await response.json()).message}`
    return
  }
  const pets = await response.json()
  document.getElementById('pets').replaceChildren(...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.name })))
  state.textContent = `${pets.length} animals`
}

document.getElementById('add').addEventListener('submit', async (event) => {
  event.preventDefault()
  const name = new FormData(event.target).get('name')
  await fetch(`${api}/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1, status: 'available' }) })
  await show()
})
show()
