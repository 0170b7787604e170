// The component under test: lists the animals, adds one, and shows an error, over fetch or axios.
import axios from 'axios'
import { useEffect, useState } from 'react'

async function request(client, url, options) {
  if (client === 'axios') {
    const response = await axios({ url, method: options.method ?? 'GET', headers: options.headers, data: options.body, validateStatus: () => true })
    return { ok: response.status < 300, body: response.data }
  }
  const response = await fetch(url, { ...options, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
  return { ok: response.ok, body: await response.json() }
}

export function Pets({ baseUrl, apiKey, client = 'fetch' }) {
  const [pets, setPets] = useState(undefined)
  const [error, setError] = useState(undefined)
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }

  async function load() {
    const answer = await request(client, `${baseUrl}/pets?limit=100`, { headers })
    if (answer.ok) setPets(answer.body)
    else setError(`Error ${answer.body.status}: ${answer.body.code}`)
  }

  async function add() {
    const answer = await request(client, `${baseUrl}/pets`, { method: 'POST', headers, body: { name: 'Biscuit', categoryId: 3 } })
    if (answer.ok) await load()
    else setError(`Error ${answer.body.status}: ${answer.body.code}`)
  }

  useEffect(() => {
    load()
  }, [])

  if (error !== undefined) return <p role="alert">{error}</p>
  if (pets === undefined) return <p role="status">Loading animals</p>
  return (
    <section>
      <p role="status">{pets.length} animals</p>
      <button onClick={add}>Add</button>
      <ul>
        {pets.map((pet) => (
          <li key={pet.id}>{pet.name}</li>
        ))}
      </ul>
    </section>
  )
}
