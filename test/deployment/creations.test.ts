import { expect, it } from 'vitest'
import { idReuses, watchCreations, watchCreationsFromTheFirst } from '../../src/deployment/creations.js'
import { cite } from '../../src/spec/citations.js'

const BASE = 'https://staging.example/v1'
const KEY = 'creations-key-1'

type Sent = { readonly url: string; readonly method: string; readonly authorization: string | null }

/** A side that answers each request with `answer(url, method)`, noting what was sent. */
function side(answer: (url: URL, method: string) => Response) {
  const sent: Sent[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input))
    const method = init?.method ?? 'GET'
    sent.push({ url: `${url.pathname}${url.search}`, method, authorization: new Headers(init?.headers).get('authorization') })
    return answer(url, method)
  }
  return { sent, service: { baseUrl: BASE, apiKey: KEY, timeoutMs: 1000, fetch } }
}

const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

it('lists every animal and each status, as many as limit allows, with the key, before anything is created', async () => {
  const { sent, service } = side(() => json(200, []))
  await watchCreations(service)
  expect(sent).toEqual([
    { url: '/v1/pets?limit=100', method: 'GET', authorization: `Bearer ${KEY}` },
    { url: '/v1/pets?status=available&limit=100', method: 'GET', authorization: `Bearer ${KEY}` },
    { url: '/v1/pets?status=pending&limit=100', method: 'GET', authorization: `Bearer ${KEY}` },
    { url: '/v1/pets?status=sold&limit=100', method: 'GET', authorization: `Bearer ${KEY}` },
  ])
})

it('takes the integer ids of the lists answered 200 with an array, with their names, and nothing from any other answer', async () => {
  const { service } = side((url) => {
    const status = url.searchParams.get('status')
    if (status === null) return json(200, [{ id: 1, name: 'Rex' }, { id: '2', name: 'text id' }, { id: 2.5 }, null, { name: 'no id' }])
    if (status === 'available') return json(200, [{ id: 3, name: 'Tom' }])
    if (status === 'pending') return json(500, [{ id: 4, name: 'an array with an error' }])
    return new Response('[{"id":5', { status: 200 }) // cut short: not JSON
  })
  const { log } = await watchCreations(service)
  expect([...log.before]).toEqual([
    ['1', 'Rex'],
    ['3', 'Tom'],
  ])
})

it('notes the id of each animal a POST to /pets was answered 201 with, in order, and no other answer', async () => {
  let next = 10
  const { service } = side((url, method) => {
    // A read answered 201 with an id is no creation, whatever its path.
    if (method === 'GET') return url.searchParams.has('odd') || url.pathname !== '/v1/pets' ? json(201, { id: 99 }) : json(200, [])
    if (url.pathname === '/v1/pets') return url.searchParams.has('refuse') ? json(200, { id: 98 }) : json(201, { id: next++ })
    return json(201, { id: 97 }) // created somewhere else: not an animal of /pets
  })
  const { log, fetch } = await watchCreations(service)
  const post = (path: string) => fetch(`${BASE}${path}`, { method: 'POST', body: '{}' })
  const first = await post('/pets')
  expect(await first.json()).toEqual({ id: 10 }) // the caller still reads the body
  await post('/pets?refuse=1')
  await post('/animals')
  await fetch(`${BASE}/pets/7`)
  await fetch(`${BASE}/pets?odd=1`)
  await post('/pets')
  expect(log.created).toEqual(['10', '11'])
})

it('notes nothing for a 201 whose body holds no integer id', async () => {
  const { service } = side((_url, method) => (method === 'GET' ? json(200, []) : new Response('created', { status: 201 })))
  const { log, fetch } = await watchCreations(service)
  await fetch(`${BASE}/pets`, { method: 'POST', body: '{}' })
  expect(log.created).toEqual([])
})

it('from the first: sends nothing until the first creation, then takes its look once, before it', async () => {
  let next = 2
  const { sent, service } = side((_url, method) => (method === 'GET' ? json(200, [{ id: 1, name: 'Rex' }]) : json(201, { id: next++ })))
  const { log, fetch } = watchCreationsFromTheFirst(service)
  await fetch(`${BASE}/pets/1`)
  expect(sent.map((each) => each.url)).toEqual(['/v1/pets/1'])
  await fetch(`${BASE}/pets`, { method: 'POST', body: '{}' })
  await fetch(`${BASE}/pets`, { method: 'POST', body: '{}' })
  expect(sent.map((each) => `${each.method} ${each.url}`)).toEqual([
    'GET /v1/pets/1',
    'GET /v1/pets?limit=100',
    'GET /v1/pets?status=available&limit=100',
    'GET /v1/pets?status=pending&limit=100',
    'GET /v1/pets?status=sold&limit=100',
    'POST /v1/pets',
    'POST /v1/pets',
  ])
  expect([...log.before]).toEqual([['1', 'Rex']])
  expect(log.created).toEqual(['2', '3'])
})

it('from the first: a look that cannot be had sees nothing, and the creation still goes out', async () => {
  const { service } = side((_url, method) => {
    if (method === 'GET') throw new TypeError('fetch failed')
    return json(201, { id: 1 })
  })
  const { log, fetch } = watchCreationsFromTheFirst(service)
  expect((await fetch(`${BASE}/pets`, { method: 'POST', body: '{}' })).status).toBe(201)
  expect(log.before.size).toBe(0)
  expect(log.created).toEqual(['1'])
})

it('judges a log: new ids listed before, and ids given twice, each as a reason citing spec 2, naming at most three', () => {
  const before = new Map<string, unknown>([['1', 'Rex'], ['2', 'Tom'], ['3', 'Kit'], ['4', 'Max']])
  expect(idReuses({ before, created: ['5', '6'] })).toEqual({ created: 2, listedBefore: 4, taken: 0, twice: 0, reasons: [] })
  const judged = idReuses({ before, created: ['1', '2', '3', '4', '9', '9'] })
  expect(judged).toMatchObject({ created: 6, taken: 4, twice: 1 })
  expect(judged.reasons).toEqual([
    `4 of 6 new animals got ids that animals listed before the first creation already had: 1 (listed as "Rex"), 2 (listed as "Tom"), 3 (listed as "Kit") and 1 more; ${cite('petId')}`,
    `1 of 6 new animals got an id an earlier new animal had: 9; ${cite('petId')}`,
  ])
  const many = idReuses({ before: new Map(), created: ['5', '5', '6', '6', '7', '7', '8', '8'] })
  expect(many.reasons).toEqual([`4 of 8 new animals got an id an earlier new animal had: 5, 6, 7 and 1 more; ${cite('petId')}`])
})
