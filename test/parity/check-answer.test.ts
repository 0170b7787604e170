import { expect, it } from 'vitest'
import { PARITY_PROBES, type Probe, toProbeRequest } from '../../src/parity/probes.js'
import { checkAnswer, type ObservedAnswer } from '../../src/parity/check-answer.js'
import { SPEC } from '../../src/spec/citations.js'

const said = (name: keyof typeof SPEC): string => `spec ${SPEC[name].section}: "${SPEC[name].quote}"`
const probe = (id: string): Probe => {
  const found = PARITY_PROBES.find((each) => each.id === id)
  if (found === undefined) throw new Error(`no probe ${id}`)
  return found
}
const sentFor = (id: string) => toProbeRequest(probe(id), { petId: '7', name: 'Parity probe [m]', apiKey: 'k' })
const json = (status: number, body: unknown, headers: Record<string, string> = {}): ObservedAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
const pets = (count: number) => Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `n${index}`, categoryId: 1 }))
const error = (status: number) => json(status, { code: 'x', message: 'm', status })

it('finds nothing in an answer that keeps every rule the probe is under', () => {
  expect(checkAnswer(probe('list-default'), json(200, pets(20)), sentFor('list-default'))).toEqual([])
  expect(checkAnswer(probe('list-limit-1'), json(200, pets(1)), sentFor('list-limit-1'))).toEqual([])
  expect(checkAnswer(probe('list-limit-100'), json(200, pets(57)), sentFor('list-limit-100'))).toEqual([])
  expect(checkAnswer(probe('create-without-name'), error(400), sentFor('create-without-name'))).toEqual([])
  expect(checkAnswer(probe('get-existing'), json(200, { id: 7, name: 'Parity probe [m]', categoryId: 1 }), sentFor('get-existing'))).toEqual([])
})

it('adds the status the probe pins, citing its sentence, where no other rule spoke of the status', () => {
  expect(checkAnswer(probe('get-unknown'), json(200, { id: 9223372036854775807, name: 'Ghost', categoryId: 1 }), sentFor('get-unknown'))).toEqual([
    { aspect: 'status', reason: `200 instead of 404; ${said('notFound')}` },
  ])
  expect(checkAnswer(probe('create-without-categoryId'), error(422), sentFor('create-without-categoryId'))).toEqual([
    { aspect: 'status', reason: `422 instead of 400; ${said('missingField')}` },
  ])
  // With the Sunset of another day, both are said: the day and the status.
  expect(checkAnswer(probe('get-unknown'), json(200, { id: 9223372036854775807, name: 'Ghost', categoryId: 1 }, { sunset: 'Sun, 01 Dec 2030 00:00:00 GMT' }), sentFor('get-unknown'))).toEqual([
    { aspect: 'header Sunset', reason: `Sunset says Sun, 01 Dec 2030 00:00:00 GMT, not 5 December 2030; ${said('removal')}` },
    { aspect: 'status', reason: `200 instead of 404; ${said('notFound')}` },
  ])
})

it('says a wrong status once: a rule of the answer that named it is not repeated by the probe', () => {
  expect(checkAnswer(probe('list-no-key'), json(200, []), sentFor('list-no-key'))).toEqual([
    { aspect: 'status', reason: `a request without Authorization was answered 200; ${said('unauthorized')}` },
  ])
  expect(checkAnswer(probe('create-with-status'), json(200, { id: 1, name: 'Parity probe [m]', categoryId: 1, status: 'available' }), sentFor('create-with-status'))).toEqual([
    { aspect: 'status', reason: `200 instead of 201; ${said('created')}` },
  ])
  expect(checkAnswer(probe('list-default'), error(503), sentFor('list-default'))).toEqual([
    { aspect: 'status', reason: `a server error, which the spec does not answer to this request; ${said('listOk')}` },
  ])
})

it('names the credential each probe sent when a refusal was answered 200', () => {
  const refusals = [
    ['list-no-key', 'a request without Authorization'],
    ['list-empty-token', 'a request with an empty bearer token'],
    ['list-invalid-key', 'a request with a key the service does not accept'],
    ['list-wrong-scheme', 'a request with a scheme other than Bearer'],
  ] as const
  for (const [id, refusal] of refusals) {
    expect(checkAnswer(probe(id), json(200, []), sentFor(id)), id).toEqual([{ aspect: 'status', reason: `${refusal} was answered 200; ${said('unauthorized')}` }])
  }
})

it('leaves the status open where the probe pins none', () => {
  for (const status of [400, 404, 422]) expect(checkAnswer(probe('list-limit-0'), error(status), sentFor('list-limit-0')), String(status)).toEqual([])
  expect(checkAnswer(probe('create-text-plain'), error(415), sentFor('create-text-plain'))).toEqual([])
})

it('judges a created animal against the body as sent on that side, when it is given', () => {
  const created = json(201, { id: 3, name: 'Parity probe [m]', categoryId: 5 })
  expect(checkAnswer(probe('create-categoryId-numeric-text'), created, sentFor('create-categoryId-numeric-text'))).toEqual([
    { aspect: 'status', reason: `an animal with categoryId "5" was added; ${said('petCategoryId')}` },
  ])
  expect(checkAnswer(probe('create-with-status'), json(201, { id: 3, name: 'Someone else', categoryId: 1, status: 'available' }), sentFor('create-with-status'))).toEqual([
    { aspect: 'body', reason: `the created animal's name is not what was sent; ${said('petFields')} (${said('created')})` },
  ])
  // Without the request as sent, the name and the body are unknown: only the status is judged.
  expect(checkAnswer(probe('create-categoryId-numeric-text'), created)).toEqual([{ aspect: 'status', reason: `201 instead of 400; ${said('badBody')}` }])
  expect(checkAnswer(probe('create-with-status'), json(201, { id: 3, name: 'Someone else', categoryId: 1 }))).toEqual([])
})

it('takes the limit from the probe when the request as sent is not given', () => {
  expect(checkAnswer(probe('list-limit-3'), json(200, pets(5)))).toEqual([
    { aspect: 'count', reason: `5 animals listed, more than limit=3; ${said('limit')}` },
    { aspect: 'count', reason: `5 animals listed where 3 are due: limit=3 asks for them and more exist; ${said('limit')}` },
  ])
  expect(checkAnswer(probe('list-limit-101'), json(200, pets(101)))).toEqual([
    { aspect: 'count', reason: `101 animals listed, more than the maximum 100 for limit=101; ${said('limit')}` },
  ])
  expect(checkAnswer(probe('list-limit-101'), json(200, pets(101)), sentFor('list-limit-101'))).toEqual([
    { aspect: 'count', reason: `101 animals listed, more than the maximum 100 for limit=101; ${said('limit')}` },
  ])
})

it('requires exactly as many animals as a probe with a count asks for, saying why', () => {
  expect(checkAnswer(probe('list-default'), json(200, pets(19)), sentFor('list-default'))).toEqual([
    { aspect: 'count', reason: `19 animals listed where 20 are due: limit defaults to 20 and more exist; ${said('limit')}` },
  ])
  expect(checkAnswer(probe('list-limit-3'), json(200, pets(2)), sentFor('list-limit-3'))).toEqual([
    { aspect: 'count', reason: `2 animals listed where 3 are due: limit=3 asks for them and more exist; ${said('limit')}` },
  ])
  expect(checkAnswer(probe('list-limit-1'), json(200, []), sentFor('list-limit-1'))).toEqual([
    { aspect: 'count', reason: `0 animals listed where 1 are due: limit=1 asks for them and more exist; ${said('limit')}` },
  ])
})

it('counts only a list answered 200, and nothing in a probe without a count', () => {
  expect(checkAnswer(probe('list-limit-100'), json(200, pets(3)), sentFor('list-limit-100'))).toEqual([])
  expect(checkAnswer(probe('list-status-sold'), json(200, []), sentFor('list-status-sold'))).toEqual([])
  expect(checkAnswer(probe('list-default'), json(203, pets(10)), sentFor('list-default'))).toEqual([{ aspect: 'status', reason: `203 instead of 200; ${said('listOk')}` }])
  expect(checkAnswer(probe('list-default'), json(200, { pets: [] }), sentFor('list-default'))).toEqual([{ aspect: 'body', reason: said('petList') }])
  expect(checkAnswer(probe('list-default'), { status: 200, headers: { 'content-type': 'text/plain' }, body: 'twenty animals' }, sentFor('list-default'))).toEqual([
    { aspect: 'content-type', reason: said('json') },
    { aspect: 'body', reason: said('petList') },
  ])
})

it('holds a request the spec does not define to no rule, whatever its method and path', () => {
  const other: Probe = { id: 'other-list', operation: 'other', method: 'GET', path: '/pets', auth: 'none', expect: { rule: 'not the spec\'s' } }
  expect(checkAnswer(other, json(500, 'broken'))).toEqual([])
  expect(checkAnswer(probe('delete-pet'), { status: 204, headers: {}, body: '' }, sentFor('delete-pet'))).toEqual([])
  expect(checkAnswer(probe('unknown-path'), { status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>' }, sentFor('unknown-path'))).toEqual([])
})

it('reads the operation of a probe whose path names the run\'s animal before it is filled in', () => {
  expect(checkAnswer(probe('get-existing'), json(200, { id: 7, name: 'a', categoryId: 1 }, { sunset: 'soon' }))).toEqual([
    { aspect: 'header Sunset', reason: `Sunset says soon, not 5 December 2030; ${said('removal')}` },
  ])
  expect(checkAnswer(probe('get-no-key'), json(200, { id: 7, name: 'a', categoryId: 1 }))).toEqual([
    { aspect: 'status', reason: `a request without Authorization was answered 200; ${said('unauthorized')}` },
  ])
})
