// What the app does with the service, run over msw (msw.test.ts) and over serve (serve.test.ts).
import { expect, it } from 'vitest'
import { createApi } from './api.js'

export function scenarios(baseUrl: string): void {
  const api = createApi(baseUrl, 'app-key')

  it('lists with a status filter and a limit', async () => {
    const { data, response } = await api.GET('/pets', { params: { query: { status: 'sold', limit: 2 } } })
    expect(response.status).toBe(200)
    expect(data).toHaveLength(2)
    for (const pet of data ?? []) expect(pet.status).toBe('sold')
  })

  it('creates an animal, then gets it by its id', async () => {
    const created = await api.POST('/pets', { body: { name: 'Generated', categoryId: 2, status: 'pending' } })
    expect(created.response.status).toBe(201)
    const id = created.data?.id ?? -1
    const got = await api.GET('/pets/{petId}', { params: { path: { petId: id } } })
    expect(got.data).toEqual({ id, name: 'Generated', categoryId: 2, status: 'pending' })
    expect(got.response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  })

  it('meets 400 with the Error body', async () => {
    const { error, response } = await api.GET('/pets', { params: { query: { limit: 0 } } })
    expect(response.status).toBe(400)
    expect(error).toMatchObject({ status: 400, code: expect.any(String), message: expect.stringContaining('limit') })
  })

  it('meets 401 without a key', async () => {
    const { error, response } = await createApi(baseUrl).GET('/pets')
    expect(response.status).toBe(401)
    expect(error?.status).toBe(401)
  })

  it('meets 404 for an id no animal has', async () => {
    const { error } = await api.GET('/pets/{petId}', { params: { path: { petId: 987654321 } } })
    expect(error).toMatchObject({ status: 404 })
  })

  it('meets a 503 chosen through Prefer', async () => {
    const { error, response } = await api.GET('/pets', { headers: { Prefer: 'code=503' } })
    expect(response.status).toBe(503)
    expect(error?.status).toBe(503)
  })
}
