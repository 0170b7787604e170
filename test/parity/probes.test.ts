import { expect, it } from 'vitest'
import { describeProbe, PARITY_PROBES, type Probe, toProbeRequest } from '../../src/parity/probes.js'

const probe = (id: string): Probe => {
  const found = PARITY_PROBES.find((each) => each.id === id)
  if (found === undefined) throw new Error(`no probe ${id}`)
  return found
}
const context = { petId: '31', name: 'Parity probe [animals-mock parity ci-7]', apiKey: 'k-1' }

it('sends each credential as its probe names it, and the key only where the probe sends it', () => {
  const authorization = (id: string) => toProbeRequest(probe(id), context).headers.authorization
  expect(authorization('list-default')).toBe('Bearer k-1')
  expect(authorization('list-no-key')).toBeUndefined()
  expect(authorization('list-empty-token')).toBe('Bearer ')
  expect(authorization('list-invalid-key')).toBe('Bearer not-a-valid-key')
  expect(authorization('list-wrong-scheme')).toBe('Basic k-1')
  expect(toProbeRequest(probe('create-no-key'), context).headers).toEqual({ accept: 'application/json', 'content-type': 'application/json' })
})

it('puts the query, the run\'s animal and the marked name where the probe says', () => {
  expect(toProbeRequest(probe('list-limit-3'), context)).toEqual({ method: 'GET', target: '/pets?limit=3', headers: { accept: 'application/json', authorization: 'Bearer k-1' } })
  expect(toProbeRequest(probe('list-default'), context).target).toBe('/pets')
  expect(toProbeRequest(probe('get-existing'), { ...context, petId: '9007199254740993' }).target).toBe('/pets/9007199254740993')
  expect(toProbeRequest(probe('get-unknown'), context).target).toBe('/pets/9223372036854775807')
  expect(toProbeRequest(probe('delete-pet'), context)).toEqual({ method: 'DELETE', target: '/pets/31', headers: { accept: 'application/json', authorization: 'Bearer k-1' } })
  const created = toProbeRequest(probe('create-without-status'), context)
  expect(created.body).toBe('{"name":"Parity probe [animals-mock parity ci-7]","categoryId":1}')
  expect(toProbeRequest(probe('create-text-plain'), context).headers['content-type']).toBe('text/plain')
  expect(toProbeRequest(probe('create-empty-body'), context).body).toBe('')
})

it('describes a probe\'s request as people read it, with its query and credential', () => {
  expect(['list-default', 'list-limit-3', 'list-no-key', 'create-empty-token', 'get-invalid-key', 'get-wrong-scheme', 'put-pet'].map((id) => describeProbe(probe(id)))).toEqual([
    'GET /pets',
    'GET /pets?limit=3',
    'GET /pets (no key)',
    'POST /pets (empty token)',
    'GET /pets/{petId} (invalid key)',
    'GET /pets/{petId} (Basic scheme)',
    'PUT /pets/{petId}',
  ])
})

it('gives every probe a rule, and pins a status only with a sentence of the spec', () => {
  for (const each of PARITY_PROBES) {
    expect(each.expect.rule, each.id).not.toBe('')
    // A pinned status quotes the spec; an open one says what the spec leaves open.
    expect(each.expect.rule, each.id).toMatch(each.expect.status === undefined ? /^the spec / : /^spec [0-9.]+: "/)
  }
})
