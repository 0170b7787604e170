// msw under `ng test`: the fake animals service for every spec that imports it, reset after each test.
import { setupServer } from 'msw/node'
import { createFake, createHandlers, failOnUnhandledRequests } from 'animals-mock/msw'

export const baseUrl = 'https://api.example.com/v1'
export const fake = createFake()
const server = setupServer(...createHandlers({ baseUrl, fake }))

beforeAll(() => server.listen(failOnUnhandledRequests))
afterEach(() => {
  server.resetHandlers()
  fake.reset() // back to the start: the default animals and ids, no forced rule, no latency, an empty journal
})
afterAll(() => server.close())
