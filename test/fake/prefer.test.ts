import { expect, it } from 'vitest'
import { preferredAnswer } from '../../src/fake/prefer.js'
import { createTestFake, plainRequest, respond } from '../support/core-fake.js'

const KEY = { authorization: 'Bearer k' }
const PETS = [{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' as const }]

it('reads the code among other preferences, and nothing when there is none', () => {
  expect(preferredAnswer(undefined, 'listPets')).toBeUndefined()
  expect(preferredAnswer('return=minimal', 'listPets')).toBeUndefined()
  expect(preferredAnswer('code=404', 'getPet')).toEqual({ ok: true, value: { kind: 'error', status: 404 } })
  expect(preferredAnswer(' CODE = "201" ; dynamic=true', 'createPet')).toEqual({ ok: true, value: { kind: 'success', status: 201 } })
  expect(preferredAnswer('code=400', 'listPets')).toEqual({ ok: true, value: { kind: 'error', status: 400 } })
  expect(preferredAnswer('code=599', 'listPets')).toEqual({ ok: true, value: { kind: 'error', status: 599 } })
  expect(preferredAnswer('code=399', 'listPets')?.ok).toBe(false)
  expect(preferredAnswer('code=600', 'listPets')?.ok).toBe(false)
  expect(preferredAnswer('code=200', 'createPet')?.ok).toBe(false)
})

it('journals every request that carried a code as forced, with its Prefer header', () => {
  const fake = createTestFake({ pets: PETS })
  respond(fake, plainRequest({ headers: { ...KEY, prefer: 'code=503' } }))
  respond(fake, plainRequest({ headers: { ...KEY, prefer: 'code=200' } }))
  respond(fake, plainRequest({ headers: { ...KEY, prefer: 'code=abc' } }))
  respond(fake, plainRequest({ headers: KEY }))
  expect(fake.journal().map(({ status, forced, headers }) => [status, forced, headers.prefer])).toEqual([
    [503, true, 'code=503'],
    [200, true, 'code=200'],
    [400, true, 'code=abc'],
    [200, false, undefined],
  ])
})

it('answers with the Prefer of the request before any forced rule, and the rule still waits its turn', () => {
  const fake = createTestFake({ pets: PETS })
  fake.force({ status: 502, times: 1 })
  expect(respond(fake, plainRequest({ headers: { ...KEY, prefer: 'code=404' } })).status).toBe(404)
  expect(respond(fake, plainRequest({ headers: KEY })).status).toBe(502)
})

it('ignores Prefer when created with prefer: false (serve --no-prefer)', () => {
  const fake = createTestFake({ pets: PETS, prefer: false })
  expect(respond(fake, plainRequest({ headers: { ...KEY, prefer: 'code=500' } })).status).toBe(200)
  expect(respond(fake, plainRequest({ path: '/pets/7', headers: { ...KEY, prefer: 'code=200' } })).status).toBe(404)
  expect(fake.journal().map((entry) => entry.forced)).toEqual([false, false])
})

it('says why a success cannot be given: the real answer\'s status and message', () => {
  const fake = createTestFake({ pets: PETS })
  const message = (request: Parameters<typeof plainRequest>[0]) => {
    const answer = respond(fake, plainRequest(request))
    expect(answer.status).toBe(400)
    return (JSON.parse(answer.body ?? '') as { message: string }).message
  }
  expect(message({ path: '/pets/7', headers: { ...KEY, prefer: 'code=200' } })).toBe(
    'Prefer: code=200 cannot be given: this request is answered 404 (No animal has id 7.); the fake does not invent a 200.',
  )
  expect(message({ method: 'POST', headers: { ...KEY, prefer: 'code=201', 'content-type': 'application/json' }, body: new TextEncoder().encode('{}') })).toMatch(
    /answered 400 \(.*name.*\)/,
  )
})

it('applies Prefer to the spec\'s three operations only: another method is refused as usual', () => {
  const fake = createTestFake({ pets: PETS })
  for (const [method, path] of [['PUT', '/pets'], ['DELETE', '/pets'], ['DELETE', '/pets/1']] as const) {
    expect(respond(fake, plainRequest({ method, path, headers: { ...KEY, prefer: 'code=400' } })).status, `${method} ${path}`).toBe(405)
  }
})

it('takes the code exactly as written, quotes aside, and shows a refused one as written', () => {
  const refusal = (header: string) => {
    const answer = preferredAnswer(header, 'getPet')
    return answer === undefined || answer.ok ? answer : answer.error.message
  }
  const usage = 'use 200, or an error status from 400 to 599.'
  expect(refusal('code=40=4')).toBe(`Prefer: code=40=4 is not an answer of getPet: ${usage}`)
  expect(refusal('code=+404')).toBe(`Prefer: code=+404 is not an answer of getPet: ${usage}`)
  expect(refusal('code=404.0')).toBe(`Prefer: code=404.0 is not an answer of getPet: ${usage}`)
  expect(refusal('code="404"x')).toBe(`Prefer: code="404"x is not an answer of getPet: ${usage}`)
  expect(refusal('code=x"404"')).toBe(`Prefer: code=x"404" is not an answer of getPet: ${usage}`)
  expect(refusal(`code=${'9'.repeat(30)}`)).toBe(`Prefer: code=${'9'.repeat(20)} is not an answer of getPet: ${usage}`)
  expect(refusal('code=404, code=500')).toBe(`Prefer names more than one code (404, 500): ${usage}`)
})
