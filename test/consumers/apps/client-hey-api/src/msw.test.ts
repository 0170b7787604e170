import { setupServer } from 'msw/node'
import { afterAll, beforeAll } from 'vitest'
import { createFake, createHandlers, failOnUnhandledRequests } from 'animals-mock/msw'
import { scenarios } from './scenarios.js'

const baseUrl = 'https://api.example.com/v1'
const server = setupServer(...createHandlers({ baseUrl, fake: createFake() }))
beforeAll(() => server.listen(failOnUnhandledRequests))
afterAll(() => server.close())

scenarios(baseUrl)
