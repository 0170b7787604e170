// @vitest-environment happy-dom
// The generated hooks in a rendered React tree, over createHandlers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { setupServer } from 'msw/node'
import { createElement } from 'react'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { createFake, createHandlers, failOnUnhandledRequests } from 'animals-mock/msw'
import { setOrigin } from './fetcher.js'
import { useListPets, type listPetsResponse } from './generated/animals.js'

const baseUrl = 'https://api.example.com/v1'
const server = setupServer(...createHandlers({ baseUrl, fake: createFake() }))
beforeAll(() => server.listen(failOnUnhandledRequests))
afterAll(() => server.close())
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

it('renders useListPets with the sold animals', async () => {
  setOrigin(baseUrl)
  let seen: listPetsResponse | undefined
  function SoldAnimals() {
    seen = useListPets({ status: 'sold', limit: 3 }, { request: { headers: { Authorization: 'Bearer app-key' } } }).data
    return null
  }
  const root = createRoot(document.createElement('div'))
  await act(async () => root.render(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(SoldAnimals))))
  await vi.waitFor(() => expect(seen?.status).toBe(200))
  expect(seen?.data).toHaveLength(3)
  act(() => root.unmount())
})
