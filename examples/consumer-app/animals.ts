// A small app's data layer: what a frontend does with the animals service.

export type Animal = { id: number; name: string; categoryId: number; status?: 'available' | 'pending' | 'sold' }

export class AnimalsError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

export function createAnimalsApi(baseUrl: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${baseUrl}${path}`, { ...init, headers })
    const body = (await response.json()) as T & { message?: string }
    if (!response.ok) throw new AnimalsError(response.status, body.message ?? `HTTP ${response.status}`)
    return body
  }
  return {
    /** The shop window: animals for sale. */
    forSale: () => call<Animal[]>('/pets?status=available&limit=10'),
    /** The first page of every animal. */
    firstPage: () => call<Animal[]>('/pets'),
    add: (name: string, categoryId: number) => call<Animal>('/pets', { method: 'POST', body: JSON.stringify({ name, categoryId, status: 'available' }) }),
    /** One animal, or undefined when there is none with that id. */
    async find(id: number): Promise<Animal | undefined> {
      try {
        return await call<Animal>(`/pets/${id}`)
      } catch (error) {
        if (error instanceof AnimalsError && error.status === 404) return undefined
        throw error
      }
    },
  }
}
