import { existsSync, readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { credentialOf, type JudgedRequest, judgeAnswer, operationOf } from '../../src/contracts/answer-rules.js'
import { SPEC } from '../../src/contracts/spec-citations.js'

// The spec as the team received it, kept beside the contract so any clone can check the quotes.
const SPEC_TEXT = readFileSync(new URL('../../contracts/spec/animals-service.txt', import.meta.url), 'utf8')
// Where the team's shared copy sits beside the repository (not in every clone): the kept copy must be it.
const SHARED_SPEC = new URL('../../../shared/spec/000_3a140a255a969e5b.txt', import.meta.url)

const list = (query: string, credential: JudgedRequest['credential'] = 'key'): JudgedRequest => ({ operation: 'listPets', method: 'GET', path: '/pets', query, credential })
const create = (body: string, credential: JudgedRequest['credential'] = 'key'): JudgedRequest => ({ operation: 'createPet', method: 'POST', path: '/pets', query: '', credential, body })
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
const pets = (count: number, extra: Record<string, unknown> = {}) => Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `n${index}`, categoryId: 1, ...extra }))
const refusal = (status: number) => json(status, { code: 'bad', message: 'no', status })
const aspects = (request: JudgedRequest, answer: ReturnType<typeof json>) => judgeAnswer(request, answer).map((each) => each.aspect)

it.skipIf(!existsSync(SHARED_SPEC))('keeps contracts/spec/animals-service.txt identical to the shared spec', () => {
  expect(SPEC_TEXT).toBe(readFileSync(SHARED_SPEC, 'utf8'))
})

it('quotes every sentence it cites word for word from the spec (a table row as its cells joined by " | ")', () => {
  const rows = SPEC_TEXT.split('\n').map((line) => (line.trim().startsWith('|') ? line.trim().slice(1, -1).split('|').map((cell) => cell.trim()).join(' | ') : line))
  const text = rows.join('\n')
  for (const [name, { section, quote }] of Object.entries(SPEC)) {
    expect(text, name).toContain(quote)
    expect(SPEC_TEXT, name).toMatch(new RegExp(`^## ${section.split('.')[0]}\\. `, 'm'))
  }
})

it('calls a limit outside 1..100 answered as if valid a contradiction, and a refusal or a clamp open', () => {
  expect(aspects(list('limit=0'), json(200, []))).toEqual(['count'])
  expect(aspects(list('limit=-1'), json(200, []))).toEqual(['count'])
  expect(aspects(list('limit=0'), json(200, pets(1)))).toEqual([])
  expect(aspects(list('limit=0'), refusal(400))).toEqual([])
  expect(aspects(list('limit=101'), json(200, pets(101)))).toEqual(['count'])
  expect(aspects(list('limit=101'), json(200, pets(100)))).toEqual([])
  expect(aspects(list('limit=abc'), json(200, pets(20)))).toEqual(['count'])
  expect(aspects(list('limit=1.5'), json(200, pets(20)))).toEqual(['count'])
  expect(aspects(list('limit=1.5'), json(200, pets(1)))).toEqual([])
  expect(aspects(list('limit=abc'), refusal(422))).toEqual([])
})

it('caps every list at its limit, exactly at the boundary, and at 20 without one', () => {
  expect(aspects(list('limit=3'), json(200, pets(3)))).toEqual([])
  expect(aspects(list('limit=3'), json(200, pets(4)))).toEqual(['count'])
  expect(aspects(list('limit=100'), json(200, pets(100)))).toEqual([])
  expect(aspects(list('limit=100'), json(200, pets(101)))).toEqual(['count'])
  expect(aspects(list(''), json(200, pets(20)))).toEqual([])
  expect(aspects(list(''), json(200, pets(21)))).toEqual(['count'])
})

it('calls a list for a status outside PetStatus a contradiction, and a list outside the filter one', () => {
  for (const status of ['bogus', 'toString', 'SOLD', '']) expect(aspects(list(`status=${status}`), json(200, [])), status).toEqual(['status'])
  expect(aspects(list('status=bogus'), refusal(400))).toEqual([])
  expect(aspects(list('status=sold'), json(200, pets(2, { status: 'sold' })))).toEqual([])
  expect(aspects(list('status=sold'), json(200, [...pets(1, { status: 'sold' }), ...pets(1)]))).toEqual(['body'])
})

it('requires 401 for every request without a valid key, before any other check', () => {
  for (const credential of ['none', 'empty-token', 'wrong-scheme', 'refused-key'] as const) {
    expect(aspects(list('', credential), refusal(401)), credential).toEqual([])
    expect(aspects(list('', credential), json(200, [])), credential).toEqual(['status'])
    expect(aspects(create('{"categoryId":"x"}', credential), refusal(400)), credential).toEqual(['status'])
  }
  expect(aspects(list('', 'unknown'), json(200, []))).toEqual([])
})

it('tells what an Authorization header amounts to without the keys', () => {
  expect([undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'bearer k', 'Bearer k'].map(credentialOf)).toEqual([
    'none', 'none', 'empty-token', 'empty-token', 'wrong-scheme', 'unknown', 'unknown',
  ])
})

it('calls an animal with a bad categoryId, name or status that was added a contradiction', () => {
  for (const body of ['{"name":"a","categoryId":"5"}', '{"name":"a","categoryId":null}', '{"name":"a","categoryId":true}', '{"name":"a","categoryId":1.5}', '{"name":1,"categoryId":1}', '{"name":"a"}', '{"categoryId":1}', '{"name":"a","categoryId":1,"status":"gone"}', '[]', 'nope']) {
    expect(aspects(create(body), json(201, { id: 1, name: 'a', categoryId: 1 })), body).toEqual(['status'])
    expect(aspects(create(body), refusal(400)), body).toEqual([])
  }
})

it('requires the created animal to be the one sent, its id assigned', () => {
  const sent = create('{"name":"Biscuit","categoryId":3,"status":"sold"}')
  expect(aspects(sent, json(201, { id: 7, name: 'Biscuit', categoryId: 3, status: 'sold' }))).toEqual([])
  expect(aspects(sent, json(201, { id: 7, name: 'Biscuit', categoryId: 3 }))).toEqual(['body'])
  expect(aspects(sent, json(201, { id: 7, name: 'Other', categoryId: 3, status: 'sold' }))).toEqual(['body'])
  expect(aspects(sent, json(201, { id: '7', name: 'Biscuit', categoryId: 3, status: 'sold' }))).toEqual(['body'])
  // No default status is stated: a service may add one.
  expect(aspects(create('{"name":"B","categoryId":3}'), json(201, { id: 7, name: 'B', categoryId: 3, status: 'available' }))).toEqual([])
})

it('requires the animal asked for, Error bodies that repeat the status, JSON, and no server errors', () => {
  const get = (id: string): JudgedRequest => ({ operation: 'getPet', method: 'GET', path: `/pets/${id}`, query: '', credential: 'key' })
  expect(aspects(get('7'), json(200, { id: 7, name: 'a', categoryId: 1 }))).toEqual([])
  expect(aspects(get('7'), json(200, { id: 8, name: 'a', categoryId: 1 }))).toEqual(['body'])
  expect(aspects(get('7'), json(404, { code: 'x', message: 'y', status: 400 }))).toEqual(['body'])
  expect(aspects(get('7'), { status: 404, headers: { 'content-type': 'text/plain' }, body: 'gone' })).toEqual(['content-type', 'body'])
  expect(aspects(get('7'), refusal(503))).toEqual(['status'])
  expect(judgeAnswer({ ...get('7'), method: 'HEAD' }, { status: 404, headers: {}, body: '' })).toEqual([])
  expect(aspects({ operation: 'other', method: 'DELETE', path: '/pets/7', query: '', credential: 'key' }, refusal(500))).toEqual([])
})

it('names the operation of a method and path, HEAD as GET', () => {
  expect([['GET', '/pets'], ['HEAD', '/pets'], ['POST', '/pets'], ['GET', '/pets/1'], ['HEAD', '/pets/x'], ['PUT', '/pets/1'], ['GET', '/pets/'], ['GET', '/pets/1/2'], ['GET', '/animals']].map(([method = '', path = '']) => operationOf(method, path))).toEqual([
    'listPets', 'listPets', 'createPet', 'getPet', 'getPet', 'other', 'other', 'other', 'other',
  ])
})
