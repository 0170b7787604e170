// What a generated client does with an id past 2^53: JSON.parse rounds it (docs/frontend.md).
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createFake, createHandlers, failOnUnhandledRequests } from 'animals-mock/msw'
import { createApi } from './api.js'

const baseUrl = 'https://int64.example.com/v1'
const server = setupServer(...createHandlers({ baseUrl, fake: createFake({ pets: [{ id: 9007199254740993n, name: 'Big', categoryId: 1 }] }) }))
beforeAll(() => server.listen(failOnUnhandledRequests))
afterAll(() => server.close())

it('reads an id past 2^53 rounded, as every JSON.parse does', async () => {
  const raw = await (await fetch(`${baseUrl}/pets`, { headers: { Authorization: 'Bearer k' } })).text()
  expect(raw).toContain('"id":9007199254740993')
  const { data } = await createApi(baseUrl, 'k').GET('/pets')
  expect(data?.[0]?.id).toBe(9007199254740992)
})
