import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { deprecationWarnings } from '../../src/contracts/deprecation-warnings.js'
import { pactFilePath } from '../../src/contracts/pact-files.js'

const pact = (interactions: unknown[], consumer = 'web') => ({ consumer: { name: consumer }, provider: { name: 'animals-service' }, interactions })
const http = (description: string, method: string, path: string) => ({ type: 'Synchronous/HTTP', description, request: { method, path } })

it('warns once per interaction that reads GET /pets/{petId}, whatever the pact version or base path', () => {
  const warnings = deprecationWarnings(
    pact([
      http('get one', 'GET', '/pets/4242'),
      http('head one', 'head', '/v1/pets/abc'),
      { description: 'v2 style', request: { method: 'GET', path: '/pets/1?x=1' } },
      http('list', 'GET', '/pets'),
      http('create', 'POST', '/pets'),
      http('delete', 'DELETE', '/pets/1'),
      http('nested', 'GET', '/pets/1/photos'),
      { type: 'Asynchronous/Messages', description: 'message' },
    ]),
  )
  expect(warnings.map((each) => each.description)).toEqual(['get one', 'head one', 'v2 style'])
  expect(warnings[0]).toEqual({
    consumer: 'web',
    description: 'get one',
    message: '"get one" calls GET /pets/{petId} (getPet), deprecated and to be removed on 2030-12-05; use GET /pets with the status filter instead (spec 4.3, 9.2)',
  })
})

it('finds the four getPet interactions of the committed pact, and nothing in what is not a pact', () => {
  expect(deprecationWarnings(JSON.parse(readFileSync(pactFilePath(), 'utf8')))).toHaveLength(4)
  for (const notAPact of [null, 'x', [], {}, { interactions: 'x' }, { interactions: [null, { description: 1 }] }]) {
    expect(deprecationWarnings(notAPact)).toEqual([])
  }
})
