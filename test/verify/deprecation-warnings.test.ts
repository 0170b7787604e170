import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { deprecationWarnings } from '../../src/verify/deprecation-warnings.js'
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

it('names the consumer only when the pact does', () => {
  const interactions = [http('get', 'GET', '/pets/1')]
  for (const consumer of [undefined, 'web-as-text', { name: 7 }, null]) {
    expect(deprecationWarnings({ ...(consumer === undefined ? {} : { consumer }), interactions })).toStrictEqual([
      { description: 'get', message: expect.stringMatching(/^"get" calls GET \/pets\/\{petId\}/) },
    ])
  }
})

it('warns of a read of one animal whatever its query, trailing slash or leading slash, and of nothing else', () => {
  const warned = deprecationWarnings(
    pact([
      http('query', 'GET', '/pets/7?fields=name'),
      http('slash', 'GET', '/pets/7/'),
      // A path written without its leading slash still names the operation.
      http('relative', 'GET', 'pets/7'),
      http('no path', 'GET', undefined as unknown as string),
      http('no method', undefined as unknown as string, '/pets/7'),
      http('post', 'POST', '/pets/7'),
      http('animals', 'GET', '/animals/7'),
      http('mypets', 'GET', '/mypets/7'),
      http('pets only', 'GET', '/pets/'),
      { description: 'no request', request: null },
      { description: 7, request: { method: 'GET', path: '/pets/7' } },
    ]),
  )
  expect(warned.map((each) => each.description)).toEqual(['query', 'slash', 'relative'])
})

it('finds no interactions in a pact whose interactions are not a list', () => {
  expect(deprecationWarnings({ consumer: { name: 'web' }, interactions: { 0: http('get', 'GET', '/pets/1') } })).toEqual([])
})
