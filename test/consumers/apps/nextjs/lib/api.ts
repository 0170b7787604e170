// Where the server calls the animals service: the fake of `animals-mock serve -- ...` (its URL in
// ANIMALS_MOCK_URL), or the address msw answers for in instrumentation.ts.
export const API = process.env.ANIMALS_MOCK_URL ?? 'https://api.example.com/v1'

const headers = { Authorization: 'Bearer next-app-key', 'Content-Type': 'application/json' }

export type Pet = { id: number; name: string; categoryId: number; status?: string }

export async function listPets(): Promise<Pet[]> {
  const response = await fetch(`${API}/pets?limit=100`, { headers, cache: 'no-store' })
  if (!response.ok) throw new Error(`listing answered ${response.status}`)
  return (await response.json()) as Pet[]
}

export async function createPet(name: string): Promise<Pet> {
  const response = await fetch(`${API}/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 3 }) })
  if (response.status !== 201) throw new Error(`creating answered ${response.status}`)
  return (await response.json()) as Pet
}
