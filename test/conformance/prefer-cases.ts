import { expect } from 'vitest'
import { expectDeprecationHeaders, expectError, expectPetShape } from '../support/expectations.js'
import { type ConformanceCase, firstNewIdOf } from './cases.js'
import type { Pet } from '../../src/spec/animals-service.js'

// `Prefer: code=NNN` is the fake's extension (Prism's header), not the spec's: its own table, run
// by each transport after the conformance table.

const NEW_PET = { name: 'Preferred', categoryId: 2, status: 'pending' } as const
const UNKNOWN_ID = '999999'
const prefer = (value: string): Record<string, string> => ({ prefer: value })

export const PREFER_CASES: readonly ConformanceCase[] = [
  {
    name: 'Prefer: code=404 on listPets answers 404 with the Error body, for that request only',
    async run({ api, pets }) {
      expectError(await api.authed('/pets', { headers: prefer('code=404') }), 404, 'not_found', 'Prefer: code=404')
      const next = await api.authed('/pets', { query: 'limit=100' })
      expect(next.status).toBe(200)
      expect((next.json as unknown[]).length).toBe(pets.length)
    },
  },
  {
    name: 'Prefer: code=500 on createPet answers 500 and stores nothing; the next id is not used up',
    async run(context) {
      const { api } = context
      expectError(await api.authed('/pets', { method: 'POST', body: NEW_PET, headers: prefer('code=500') }), 500, 'internal_error')
      const listed = await api.authed('/pets', { query: 'limit=100' })
      expect((listed.json as Pet[]).some((pet) => pet.name === NEW_PET.name)).toBe(false)
      const created = await api.authed('/pets', { method: 'POST', body: NEW_PET })
      expect(created.status).toBe(201)
      expect((created.json as Pet).id).toBe(firstNewIdOf(context))
    },
  },
  {
    name: 'Prefer: code=503, 429 and 401 answer that status with the Error body on each operation',
    async run({ api }) {
      for (const status of [503, 429, 401, 400, 599]) {
        expectError(await api.authed('/pets', { headers: prefer(`code=${status}`) }), status)
        expectError(await api.authed('/pets', { method: 'POST', body: NEW_PET, headers: prefer(`code=${status}`) }), status)
        expectError(await api.authed('/pets/1', { headers: prefer(`code=${status}`) }), status)
      }
    },
  },
  {
    name: 'Prefer: code=200 on an unknown animal is refused with 400, not invented; on a known one it is the animal',
    async run({ api, pets, basePath }) {
      const refused = await api.authed(`/pets/${UNKNOWN_ID}`, { headers: prefer('code=200') })
      expectError(refused, 400, 'invalid_parameter', 'cannot be given')
      expect((refused.json as { message: string }).message).toContain('404')
      expectDeprecationHeaders(refused, basePath)
      const found = await api.authed('/pets/1', { headers: prefer('code=200') })
      expect(found.status).toBe(200)
      expect(found.json).toEqual(pets[0])
      expectDeprecationHeaders(found, basePath)
    },
  },
  {
    name: 'Prefer: code=201 on createPet creates the animal; with a body that would be refused, 400',
    async run(context) {
      const { api } = context
      const created = await api.authed('/pets', { method: 'POST', body: NEW_PET, headers: prefer('code=201') })
      expect(created.status).toBe(201)
      expectPetShape(created.json)
      expect(created.json).toEqual({ id: firstNewIdOf(context), ...NEW_PET })
      expectError(await api.authed('/pets', { method: 'POST', body: { categoryId: 1 }, headers: prefer('code=201') }), 400, 'invalid_parameter', 'cannot be given')
    },
  },
  {
    name: 'Prefer after the key: no key or a refused key is still 401, whatever code is preferred',
    async run({ api }) {
      for (const code of ['200', '404', '500']) {
        expectError(await api.call('/pets', { headers: prefer(`code=${code}`) }), 401, 'unauthorized')
        expectError(await api.call('/pets/1', { headers: { ...prefer(`code=${code}`), authorization: 'Bearer not-a-key' } }), 401, 'unauthorized')
      }
    },
  },
  {
    name: 'Prefer codes that are no answer of the operation are refused with 400, naming what to use',
    async run({ api }) {
      for (const code of ['204', '302', '399', '600', '999', 'abc', '', '4040', '201']) {
        expectError(await api.authed('/pets', { headers: prefer(`code=${code}`) }), 400, 'invalid_parameter', 'use 200, or an error status from 400 to 599')
      }
      expectError(await api.authed('/pets', { method: 'POST', body: NEW_PET, headers: prefer('code=200') }), 400, 'invalid_parameter', 'use 201')
    },
  },
  {
    name: 'Prefer: two different codes (a repeated header, joined) are refused; the same code twice is that code',
    async run({ api }) {
      expectError(await api.authed('/pets', { headers: prefer('code=404, code=500') }), 400, 'invalid_parameter', 'more than one code')
      expectError(await api.authed('/pets', { headers: prefer('code=404, code=404') }), 404)
    },
  },
  {
    name: 'Prefer: other preferences are ignored; code is found among them, quoted or not, in any case',
    async run({ api }) {
      const ignored = await api.authed('/pets', { headers: prefer('example=first, dynamic=true, return=minimal') })
      expect(ignored.status).toBe(200)
      expectError(await api.authed('/pets', { headers: prefer('return=minimal; Code="503"') }), 503)
    },
  },
  {
    name: 'Prefer on HEAD: the status without a body, with the deprecation headers on getPet',
    async run({ api, basePath }) {
      const head = await api.authed('/pets/1', { method: 'HEAD', headers: prefer('code=404') })
      expect(head.status).toBe(404)
      expect(head.text).toBe('')
      expectDeprecationHeaders(head, basePath)
      expect((await api.authed('/pets', { method: 'HEAD', headers: prefer('code=503') })).status).toBe(503)
    },
  },
  {
    name: 'Prefer outside an operation: an unknown path and another method keep their 404 and 405',
    async run({ api }) {
      expectError(await api.authed('/animals', { headers: prefer('code=500') }), 404, 'route_not_found')
      expectError(await api.authed('/pets/1', { method: 'DELETE', headers: prefer('code=500') }), 405, 'method_not_allowed')
    },
  },
  {
    name: 'Prefer from a browser: the preflight allows the header',
    async run({ api }) {
      const preflight = await api.call('/pets', {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,prefer' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('prefer')
    },
  },
]
