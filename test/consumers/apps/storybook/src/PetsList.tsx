import { useEffect, useState } from 'react'

type Pet = { id: number; name: string; status?: string }
type State = { kind: 'loading' } | { kind: 'pets'; pets: Pet[] } | { kind: 'error'; status: number; message: string }

/** The animals the service lists, or the error it gave. */
export function PetsList({ apiKey = 'storybook', prefer }: { apiKey?: string; prefer?: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' })
  useEffect(() => {
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` }
    if (prefer !== undefined) headers.Prefer = prefer
    fetch('/v1/pets?limit=100', { headers })
      .then(async (response) => {
        const body = await response.json()
        setState(response.ok ? { kind: 'pets', pets: body } : { kind: 'error', status: body.status, message: body.message })
      })
      .catch((error: unknown) => setState({ kind: 'error', status: 0, message: String(error) }))
  }, [apiKey, prefer])

  if (state.kind === 'loading') return <p role="status">Loading animals…</p>
  if (state.kind === 'error') return <p role="alert">{`Error ${state.status}: ${state.message}`}</p>
  if (state.pets.length === 0) return <p role="status">No animals</p>
  return (
    <section>
      <p role="status">{`${state.pets.length} animals`}</p>
      <ul>{state.pets.map((pet) => <li key={pet.id}>{pet.name}</li>)}</ul>
    </section>
  )
}
