import { expect, it } from 'vitest'
import { preferredAnswer } from '../../src/core/prefer.js'
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
