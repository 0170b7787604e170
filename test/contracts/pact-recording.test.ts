import { expect, it } from 'vitest'
import { createPactRecording } from '../../src/contracts/pact-recording.js'
import { createTestFake, plainRequest } from '../support/core-fake.js'

const KEY = { authorization: 'Bearer real-key-9f' }
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

/** Sends `requests` to a fake whose exchanges a recording observes; returns the recording. */
function recorded(requests: Parameters<typeof plainRequest>[0][]) {
  const fake = createTestFake({ pets: Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: 1, status: 'sold' as const })) })
  const recording = createPactRecording('app')
  fake.observe(recording.record)
  for (const request of requests) fake.handle(plainRequest(request))
  return recording
}

it('keeps one interaction per shape whatever order the tests ran in', () => {
  const requests = [
    { search: 'status=sold&limit=5', headers: KEY },
    { search: 'status=pending&limit=50', headers: KEY },
    { search: 'limit=3', headers: KEY },
  ]
  const forward = recorded(requests).interactions()
  const backward = recorded([...requests].reverse()).interactions()
  expect(JSON.stringify(backward)).toBe(JSON.stringify(forward))
  expect(forward.map((interaction) => interaction.description)).toEqual(['a request to list animals with limit 3', 'a request to list pending animals with limit 50'])
})

it('leaves out what the spec does not define or promise, saying so', () => {
  const recording = recorded([
    { search: 'page=2', headers: KEY },
    { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: json({ name: 'Rex', categoryId: 1, colour: 'red' }) },
    { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: json({ name: 'x'.repeat(5000), categoryId: 1 }) },
    { search: 'limit=0', headers: KEY },
    { method: 'DELETE', path: '/pets/1', headers: KEY },
    { method: 'HEAD', headers: KEY },
    { path: '/pets/abc', headers: KEY },
  ])
  expect(recording.warnings()).toEqual([
    'DELETE /v1/pets/1: a request the spec does not define: not recorded',
    'GET /v1/pets/abc: 400 for GET /pets/{petId} is an answer the spec leaves open (an id that is not an integer): not recorded',
    'GET /v1/pets?limit=0: 400 is not an answer the spec lists for GET /pets: not recorded',
    'GET /v1/pets?page=2: the spec defines no query parameter "page": left out of the pact',
    'HEAD /v1/pets: a request the spec does not define: not recorded',
    'POST /v1/pets: a 400 for a reason the spec leaves open (invalid_body): not recorded',
    'POST /v1/pets: the spec defines no field "colour" of NewPet: left out of the pact',
  ])
  const created = recording.interactions().find((interaction) => interaction.description === 'a request to add an animal without a status')
  expect(JSON.stringify(created)).not.toContain('colour')
  expect(recording.interactions().map((interaction) => interaction.description)).toEqual([
    'a request to add an animal without a status',
    'a request to list animals with the default limit',
  ])
})

it('records no forced answer: neither Prefer nor a forced rule', () => {
  const fake = createTestFake()
  const recording = createPactRecording('app')
  fake.observe(recording.record)
  fake.force({ path: '/pets', status: 503, times: 1 })
  fake.handle(plainRequest({ headers: KEY }))
  fake.handle(plainRequest({ headers: { ...KEY, prefer: 'code=404' } }))
  expect(recording.interactions()).toEqual([])
  expect(recording.warnings()).toHaveLength(1)
})

it('stops recording when the observer is removed', () => {
  const fake = createTestFake()
  const recording = createPactRecording('app')
  const stop = fake.observe(recording.record)
  stop()
  fake.handle(plainRequest({ headers: KEY }))
  expect(recording.interactions()).toEqual([])
})
