import { expect, it } from 'vitest'
import { compareOutcome, type Observed, shapeOf } from '../../src/contracts/parity-compare.js'
import { PARITY_PROBES, type Probe, toProbeRequest } from '../../src/contracts/parity-probes.js'
import { cite } from '../../src/contracts/spec-citations.js'

const probe = (id: string): Probe => {
  const found = PARITY_PROBES.find((each) => each.id === id)
  if (found === undefined) throw new Error(`no probe ${id}`)
  return found
}

const JSON_TYPE = { 'content-type': 'application/json' }
const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Observed => ({
  ok: true,
  status,
  headers: { ...JSON_TYPE, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
const error = (status: number, code = 'x'): Observed => answer(status, { code, message: 'm', status })
const pets = (count: number, extra: Record<string, unknown> = {}): unknown[] =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `n${index}`, categoryId: 1, ...extra }))
const DEPRECATION = { deprecation: '@1767225600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }

it('finds nothing when both answer alike, ids, names and order aside', () => {
  const fake = answer(200, pets(20))
  const deployment = answer(200, pets(20).reverse().map((pet, index) => ({ ...(pet as object), id: 900 + index, name: 'other' })))
  expect(compareOutcome({ probe: probe('list-default'), fake, deployment })).toEqual([])
})

it('calls a status other than the one the spec pins a contradiction, and compares nothing further', () => {
  const findings = compareOutcome({ probe: probe('create-with-status'), fake: answer(201, pets(1)[0], { location: '/v1/pets/1' }), deployment: answer(200, pets(1, { extra: 1 })[0]) })
  expect(findings).toEqual([
    { probe: 'create-with-status', verdict: 'contradiction', aspect: 'status', fake: '201', deployment: '200', side: 'deployment', reason: `200 instead of 201; ${cite('created')}` },
  ])
})

it('calls a different status where the spec pins none open, with the reason it is open', () => {
  const [finding] = compareOutcome({ probe: probe('list-limit-0'), fake: error(400), deployment: error(422) })
  expect(finding).toMatchObject({ verdict: 'open', aspect: 'status', fake: '400', deployment: '422' })
  expect(finding?.reason).toContain('not how a value outside is answered')
})

it('calls a 5xx a contradiction even where the spec leaves the answer open', () => {
  const [finding] = compareOutcome({ probe: probe('list-limit-0'), fake: error(400), deployment: error(500) })
  expect(finding).toMatchObject({ verdict: 'contradiction', aspect: 'status', side: 'deployment' })
})

it('calls an Error body without status, or with another status, a contradiction', () => {
  const [missing] = compareOutcome({ probe: probe('get-unknown'), fake: error(404), deployment: answer(404, { code: 'x', message: 'm' }) })
  expect(missing).toMatchObject({ verdict: 'contradiction', aspect: 'body', fake: '$.status: integer', deployment: '$.status: absent' })
  expect(missing?.reason).toContain('no "status"')
  const [wrong] = compareOutcome({ probe: probe('get-unknown'), fake: error(404), deployment: answer(404, { code: 'x', message: 'm', status: 400 }) })
  expect(wrong?.reason).toContain('"status" 400 instead of 404')
})

it('calls a default list of another size a contradiction once more than 20 animals exist', () => {
  const [finding] = compareOutcome({ probe: probe('list-default'), fake: answer(200, pets(20)), deployment: answer(200, pets(10)) })
  expect(finding).toMatchObject({ verdict: 'contradiction', aspect: 'count', fake: '20 animals', deployment: '10 animals' })
})

it('calls deprecation headers open, but a Sunset of any day other than 5 December 2030 a contradiction', () => {
  const { sunset: _sunset, link: _link, ...bare } = DEPRECATION
  const quiet = compareOutcome({ probe: probe('get-existing'), fake: answer(200, pets(1)[0], DEPRECATION), deployment: answer(200, pets(1)[0], { deprecation: 'true' }) })
  // `Deprecation: true` against `@1767225600`: both say it; only whether it is there is compared.
  expect(quiet.map((each) => [each.verdict, each.aspect])).toEqual([
    ['open', 'header Sunset'],
    ['open', 'header Link'],
  ])
  for (const sunset of ['Sun, 01 Dec 2030 00:00:00 GMT', 'Fri, 05 Dec 2031 00:00:00 GMT', 'Wed, 04 Dec 2030 23:59:59 GMT', 'soon']) {
    const [finding] = compareOutcome({ probe: probe('get-existing'), fake: answer(200, pets(1)[0], DEPRECATION), deployment: answer(200, pets(1)[0], { ...bare, sunset }) })
    expect(finding, sunset).toMatchObject({ verdict: 'contradiction', aspect: 'header Sunset', deployment: sunset, side: 'deployment' })
    expect(finding?.reason).toContain(cite('removal'))
  }
  const late = compareOutcome({ probe: probe('get-unknown'), fake: error(404), deployment: answer(404, { code: 'y', message: 'n', status: 404 }, { sunset: 'Thu, 05 Dec 2030 23:59:59 GMT' }) })
  expect(late.map((each) => each.verdict)).toEqual(['open'])
})

it('calls an optional field present on one side only open: no default status is stated', () => {
  const findings = compareOutcome({ probe: probe('create-without-status'), fake: answer(201, pets(1)[0], { location: '/v1/pets/1' }), deployment: answer(201, pets(1, { status: 'available' })[0], { location: 'https://x/v1/pets/9' }) })
  expect(findings.map((each) => [each.verdict, each.aspect, each.fake, each.deployment])).toEqual([
    ['open', 'header Location', 'a path to …/pets/<id>', 'a URL to …/pets/<id>'],
    ['open', 'body', '$.status: absent', '$.status: string'],
  ])
})

it('reports a contradiction both sides share, naming both, and a side that did not answer', () => {
  const bare = { 'content-type': 'text/html' }
  const both = compareOutcome({ probe: probe('list-no-key'), fake: answer(401, '<h1>no</h1>', bare), deployment: answer(401, '<h1>no</h1>', bare) })
  expect(both.map((each) => [each.verdict, each.aspect, each.side])).toEqual([
    ['contradiction', 'content-type', 'both'],
    ['contradiction', 'body', 'both'],
  ])
  const silent = compareOutcome({ probe: probe('list-default'), fake: answer(200, pets(20)), deployment: { ok: false, error: 'no answer within 10 ms' } })
  expect(silent).toEqual([expect.objectContaining({ verdict: 'no-answer', deployment: 'no answer: no answer within 10 ms' })])
})

it('describes a body by the types at each path, merging list items', () => {
  expect(shapeOf(JSON.stringify([{ id: 1, status: 'sold' }, { id: 2, name: null }]))).toEqual(
    new Map([
      ['$', 'array'],
      ['$[]', 'object'],
      ['$[].id', 'integer'],
      ['$[].name', 'null'],
      ['$[].status', 'string'],
    ]),
  )
  expect(shapeOf('')).toEqual(new Map([['$', 'empty']]))
  expect(shapeOf('{"a":')).toEqual(new Map([['$', 'not JSON']]))
})

it('fills a probe in for one side: the key, the marked name, the id of that side\'s animal', () => {
  const context = { petId: '31', name: 'Parity probe [m "1"]', apiKey: 'k-1' }
  expect(toProbeRequest(probe('get-wrong-scheme'), context)).toEqual({ method: 'GET', target: '/pets/31', headers: { accept: 'application/json', authorization: 'Basic k-1' } })
  const created = toProbeRequest(probe('create-with-status'), context)
  expect(JSON.parse(created.body ?? '')).toEqual({ name: 'Parity probe [m "1"]', categoryId: 1, status: 'available' })
  expect(created.headers).toEqual({ accept: 'application/json', authorization: 'Bearer k-1', 'content-type': 'application/json' })
  expect(toProbeRequest(probe('list-invalid-key'), context).headers.authorization).toBe('Bearer not-a-valid-key')
  expect(new Set(PARITY_PROBES.map((each) => each.id)).size).toBe(PARITY_PROBES.length)
})
