// What the app does with the service, run over msw (msw.test.ts) and over serve (serve.test.ts),
// through the query options and mutation options orval's TanStack Query hooks are built on.
import { QueryClient } from '@tanstack/react-query'
import { expect, it } from 'vitest'
import { setOrigin } from './fetcher.js'
import { createPet, getCreatePetMutationOptions, getGetPetQueryOptions, getListPetsQueryOptions, getPet, listPets } from './generated/animals.js'

const auth = (apiKey?: string): RequestInit => ({ headers: apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` } })

export function scenarios(baseUrl: string): void {
  expect(new URL(baseUrl).pathname).toBe('/v1')
  setOrigin(baseUrl)
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } })

  it('lists with a status filter and a limit', async () => {
    const answer = await queries.fetchQuery(getListPetsQueryOptions({ status: 'sold', limit: 2 }, { request: auth('app-key') }))
    expect(answer.status).toBe(200)
    if (answer.status !== 200) return
    expect(answer.data).toHaveLength(2)
    for (const pet of answer.data) expect(pet.status).toBe('sold')
  })

  it('creates an animal, then gets it by its id', async () => {
    const mutation = getCreatePetMutationOptions({ request: auth('app-key') })
    const created = await mutation.mutationFn?.({ data: { name: 'Generated', categoryId: 2, status: 'pending' } }, {} as never)
    expect(created?.status).toBe(201)
    if (created?.status !== 201) return
    const got = await queries.fetchQuery(getGetPetQueryOptions(created.data.id, { request: auth('app-key') }))
    expect(got.data).toEqual({ id: created.data.id, name: 'Generated', categoryId: 2, status: 'pending' })
    expect(got.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  })

  it('meets 400 with the Error body', async () => {
    const answer = await listPets({ limit: 0 }, auth('app-key'))
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ status: 400, code: expect.any(String), message: expect.stringContaining('limit') })
  })

  it('meets 401 without a key', async () => {
    const answer = await listPets(undefined, auth())
    expect(answer.status).toBe(401)
    expect(answer.data).toMatchObject({ status: 401 })
  })

  it('meets 404 for an id no animal has', async () => {
    const answer = await getPet(987654321, auth('app-key'))
    expect(answer).toMatchObject({ status: 404, data: { status: 404 } })
  })

  it('meets a 503 chosen through Prefer', async () => {
    const answer = await createPet({ name: 'Never stored', categoryId: 1 }, { headers: { Authorization: 'Bearer app-key', Prefer: 'code=503' } })
    expect(answer).toMatchObject({ status: 503, data: { status: 503 } })
  })
}
