// The handlers built on msw 3 (the msw3 alias of the dev dependencies), whatever msw this suite runs.
import { getResponse } from 'msw3'
import { afterEach, expect, it, vi } from 'vitest'
import { createHandlers } from '../../src/msw/handlers.js'

vi.mock('msw', () => import('msw3'))

const promise = Promise as { withResolvers?: unknown }
const nodesOwn = promise.withResolvers

afterEach(() => {
  if (nodesOwn === undefined) delete promise.withResolvers
  else promise.withResolvers = nodesOwn
})

it('refuses msw 3 where Promise.withResolvers is missing (Node 20), in one line saying what to do', () => {
  delete promise.withResolvers
  expect(() => createHandlers({ baseUrl: 'https://api.example.com/v1' })).toThrow(
    new Error(
      `msw 3 needs Node 22.12 or later, and Node ${process.version} lacks Promise.withResolvers: run on Node 22.12+, or install msw 2 (npm i -D msw@2)`,
    ),
  )
})

it('serves through msw 3 where Promise.withResolvers is there (Node 22 and later)', async () => {
  // On Node 20, a stand-in enough for msw 3's use of it.
  promise.withResolvers ??= () => {
    const settlers = {}
    const settled = new Promise((resolve, reject) => Object.assign(settlers, { resolve, reject }))
    return { promise: settled, ...settlers }
  }
  // Made by msw 3 at run time; typed with the msw this repository compiles against.
  const handlers = createHandlers({ baseUrl: 'https://api.example.com/v1' }) as unknown as Parameters<typeof getResponse>[0]
  const response = await getResponse(handlers, new Request('https://api.example.com/v1/pets?limit=1', { headers: { authorization: 'Bearer k' } }))
  expect(response?.status).toBe(200)
  expect(await response?.json()).toHaveLength(1)
})
