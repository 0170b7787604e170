import { describe, expect, it } from 'vitest'
import { compareOutcome, type Observed, shapeOf } from '../../src/parity/compare.js'
import { PARITY_PROBES, type Probe, toProbeRequest } from '../../src/parity/probes.js'
import { cite, SPEC } from '../../src/spec/citations.js'

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

const said = (name: keyof typeof SPEC): string => `spec ${SPEC[name].section}: "${SPEC[name].quote}"`
const typed = (status: number, body: string, headers: Record<string, string>): Observed => ({ ok: true, status, headers, body })
const rows = (findings: readonly { verdict: string; aspect: string; fake: string; deployment: string; side?: string }[]) =>
  findings.map((each) => [each.verdict, each.aspect, each.fake, each.deployment, each.side ?? ''])

it('says which side did not answer, and why none of the rest is compared', () => {
  const down = { ok: false, error: 'connection refused (ECONNREFUSED)' } as const
  const reason = 'a side did not answer within the timeout, or the connection failed'
  expect(compareOutcome({ probe: probe('list-default'), fake: down, deployment: answer(200, pets(20)) })).toEqual([
    { probe: 'list-default', verdict: 'no-answer', aspect: 'status', fake: 'no answer: connection refused (ECONNREFUSED)', deployment: '200', reason },
  ])
  expect(compareOutcome({ probe: probe('get-unknown'), fake: error(404), deployment: down })).toEqual([
    { probe: 'get-unknown', verdict: 'no-answer', aspect: 'status', fake: '404', deployment: 'no answer: connection refused (ECONNREFUSED)', reason },
  ])
})

it('judges each difference by the rules of its own aspect only', () => {
  // The fake's Error body lacks status (a contradiction); the challenge differs where the spec is open.
  const fake = answer(401, { code: 'x', message: 'm' }, { 'www-authenticate': 'Bearer' })
  const findings = compareOutcome({ probe: probe('list-no-key'), fake, deployment: error(401) })
  expect(findings).toEqual([
    { probe: 'list-no-key', verdict: 'open', aspect: 'header WWW-Authenticate', fake: 'present', deployment: 'absent', reason: 'the spec does not name WWW-Authenticate' },
    {
      probe: 'list-no-key',
      verdict: 'contradiction',
      aspect: 'body',
      fake: '$.status: absent',
      deployment: '$.status: integer',
      side: 'fake',
      reason: `an Error body with no "status"; ${said('errorBody')}`,
    },
  ])
})

it('gives the reason each open difference is open', () => {
  const extra = compareOutcome({ probe: probe('list-limit-0'), fake: error(400), deployment: answer(400, { code: 'x', message: 'm', status: 400, details: [] }) })
  expect(extra).toEqual([
    { probe: 'list-limit-0', verdict: 'open', aspect: 'body', fake: '$.details: absent', deployment: '$.details: array', reason: 'the spec leaves this part of the body open (an optional or extra field, or the answer to a request it does not define)' },
  ])
  const withParameters = compareOutcome({ probe: probe('list-limit-1'), fake: answer(200, pets(1)), deployment: answer(200, pets(1), { 'content-type': 'application/json; charset=utf-8' }) })
  expect(withParameters).toEqual([])
  const created = compareOutcome({ probe: probe('create-with-status'), fake: answer(201, pets(1, { status: 'available' })[0], { location: '/v1/pets/1' }), deployment: answer(201, pets(1, { status: 'available' })[0]) })
  expect(created).toEqual([
    { probe: 'create-with-status', verdict: 'open', aspect: 'header Location', fake: 'a path to …/pets/<id>', deployment: 'absent', reason: 'the spec does not name a Location header' },
  ])
  const got = compareOutcome({ probe: probe('get-existing'), fake: answer(200, pets(1)[0], DEPRECATION), deployment: answer(200, pets(1)[0]) })
  expect(got).toEqual([
    { probe: 'get-existing', verdict: 'open', aspect: 'header Deprecation', fake: 'present', deployment: 'absent', reason: 'the spec says getPet is deprecated (9.2), not which header says so' },
    {
      probe: 'get-existing',
      verdict: 'open',
      aspect: 'header Sunset',
      fake: 'Thu, 05 Dec 2030 00:00:00 GMT',
      deployment: 'absent',
      reason: 'the spec gives the removal date (9.2), not which header states it; a Sunset of another day would contradict it',
    },
    { probe: 'get-existing', verdict: 'open', aspect: 'header Link', fake: 'present', deployment: 'absent', reason: 'the spec names the replacement, GET /pets with status (4.3), but no Link header' },
  ])
  const allowed = compareOutcome({ probe: probe('put-pet'), fake: answer(405, { code: 'x', message: 'm', status: 405 }, { allow: 'GET' }), deployment: error(405) })
  expect(allowed).toEqual([{ probe: 'put-pet', verdict: 'open', aspect: 'header Allow', fake: 'present', deployment: 'absent', reason: 'the spec does not name Allow' }])
})

it('compares each header only where it matters: Location on 201, deprecation on getPet, the challenge on 401, Allow on 405', () => {
  const headers = { location: '/v1/pets/1', deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>', 'www-authenticate': 'Bearer', allow: 'GET' }
  expect(compareOutcome({ probe: probe('list-limit-100'), fake: answer(200, pets(50), headers), deployment: answer(200, pets(60)) })).toEqual([])
  expect(compareOutcome({ probe: probe('create-without-name'), fake: answer(400, { code: 'x', message: 'm', status: 400 }, headers), deployment: error(400) })).toEqual([])
  expect(compareOutcome({ probe: probe('put-pet'), fake: answer(404, { code: 'x', message: 'm', status: 404 }, headers), deployment: error(404) })).toEqual([])
  expect(rows(compareOutcome({ probe: probe('get-no-key'), fake: answer(401, { code: 'x', message: 'm', status: 401 }, headers), deployment: error(401) }))).toEqual([
    ['open', 'header Deprecation', 'present', 'absent', ''],
    ['open', 'header Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT', 'absent', ''],
    ['open', 'header Link', 'present', 'absent', ''],
    ['open', 'header WWW-Authenticate', 'present', 'absent', ''],
  ])
})

it('shows where a Location points without its id', () => {
  const shapeOfLocation = (location: string) =>
    compareOutcome({ probe: probe('create-without-status'), fake: answer(201, pets(1)[0], { location }), deployment: answer(201, pets(1)[0]) })[0]?.fake
  expect(shapeOfLocation('/v1/pets/12')).toBe('a path to …/pets/<id>')
  expect(shapeOfLocation('/v1/pets/123')).toBe('a path to …/pets/<id>')
  expect(shapeOfLocation('https://staging.example/v1/pets/9')).toBe('a URL to …/pets/<id>')
  for (const location of ['/v1/animals/12', '/v1/pets/abc', '/v1/pets/12x', '/v1/pets/x12', '/v1/pets/a1', 'https://staging.example/v1/pets']) {
    expect(shapeOfLocation(location), location).toBe(`${location.startsWith('/') ? 'a path' : 'a URL'} to another address`)
  }
})

it('tells a different media type apart from the same one with parameters', () => {
  const list = (headers: Record<string, string>) => typed(200, JSON.stringify(pets(20)), headers)
  expect(compareOutcome({ probe: probe('list-default'), fake: list(JSON_TYPE), deployment: list({ 'content-type': 'Application/JSON; charset=utf-8' }) })).toEqual([])
  expect(compareOutcome({ probe: probe('list-default'), fake: list(JSON_TYPE), deployment: list({ 'content-type': 'text/plain' }) })).toEqual([
    { probe: 'list-default', verdict: 'contradiction', aspect: 'content-type', fake: 'application/json', deployment: 'text/plain', side: 'deployment', reason: said('json') },
  ])
  expect(compareOutcome({ probe: probe('list-default'), fake: list({}), deployment: list(JSON_TYPE) })).toEqual([
    { probe: 'list-default', verdict: 'contradiction', aspect: 'content-type', fake: 'none', deployment: 'application/json', side: 'fake', reason: said('json') },
  ])
})

it('reports a contradiction both answers share in its own words, each answer shown in a few words', () => {
  const same = (status: number, body: string, headers: Record<string, string> = JSON_TYPE) => ({ probe: probe('list-limit-0'), fake: typed(status, body, headers), deployment: typed(status, body, headers) })
  expect(compareOutcome(same(500, '{"code":"x","message":"m","status":500}'))).toEqual([
    { probe: 'list-limit-0', verdict: 'contradiction', aspect: 'status', fake: '500', deployment: '500', side: 'both', reason: `a server error, which the spec does not answer to this request; ${said('listOk')}` },
  ])
  const bodies = [
    ['', {}, 'empty'],
    ['gone', { 'content-type': 'text/plain' }, 'not JSON'],
    ['[1,2]', JSON_TYPE, 'an array of 2'],
    ['{"zeta":1,"alpha":2}', JSON_TYPE, 'an object with alpha, zeta'],
    ['{}', JSON_TYPE, 'an object with no fields'],
    ['7', JSON_TYPE, 'number'],
    ['null', JSON_TYPE, 'null'],
  ] as const
  for (const [body, headers, shown] of bodies) {
    const body400 = compareOutcome(same(400, body, headers)).find((each) => each.aspect === 'body')
    expect(body400, body).toMatchObject({ verdict: 'contradiction', fake: shown, deployment: shown, side: 'both' })
  }
  expect(compareOutcome(same(400, 'gone', {})).map((each) => [each.aspect, each.fake])).toEqual([
    ['content-type', 'none'],
    ['body', 'not JSON'],
  ])
})

it('joins the reasons of both sides, the deployment\'s first, each once', () => {
  const [finding] = compareOutcome({
    probe: probe('get-unknown'),
    fake: answer(404, { code: 'x', message: 'm', status: 400 }),
    deployment: answer(404, { code: 'x', message: 'm', status: 'gone' }),
  })
  expect(finding).toEqual({
    probe: 'get-unknown',
    verdict: 'contradiction',
    aspect: 'body',
    fake: '$.status: integer',
    deployment: '$.status: string',
    side: 'both',
    reason: `an Error body with "status" "gone" instead of 404, the HTTP status; ${said('errorBody')}; an Error body with "status" 400 instead of 404, the HTTP status; ${said('errorBody')}`,
  })
})

it('lists body differences by path, and compares a count only where the probe fixes one', () => {
  const findings = compareOutcome({ probe: probe('list-limit-0'), fake: error(400), deployment: answer(400, { zeta: 1, code: 'x', message: 'm', status: 400, alpha: 'a' }) })
  expect(findings.map((each) => each.deployment)).toEqual(['$.alpha: string', '$.zeta: integer'])
  expect(compareOutcome({ probe: probe('list-limit-100'), fake: answer(200, pets(50)), deployment: answer(200, pets(60)) })).toEqual([])
  // A count that differs is found among the differences, before contradictions both sides share.
  const plain = { 'content-type': 'text/plain' }
  const counted = compareOutcome({ probe: probe('list-default'), fake: typed(200, JSON.stringify(pets(20)), plain), deployment: typed(200, JSON.stringify(pets(10)), plain) })
  expect(rows(counted)).toEqual([
    ['contradiction', 'count', '20 animals', '10 animals', 'deployment'],
    ['contradiction', 'content-type', 'text/plain', 'text/plain', 'both'],
  ])
})

it('tells integers from other numbers and merges the types seen at a path in order', () => {
  expect(shapeOf('1.5')).toEqual(new Map([['$', 'number']]))
  expect(shapeOf('[1,"a",null]')).toEqual(new Map([['$', 'array'], ['$[]', 'integer or null or string']]))
  expect(shapeOf('["a",1]')).toEqual(new Map([['$', 'array'], ['$[]', 'integer or string']]))
  expect(shapeOf('{"a":{"b":true}}')).toEqual(new Map([['$', 'object'], ['$.a', 'object'], ['$.a.b', 'boolean']]))
})

it('calls the answers to a request the spec does not define open, in any media type', () => {
  const html = typed(404, '<h1>Not found</h1>', { 'content-type': 'text/html' })
  expect(compareOutcome({ probe: probe('unknown-path'), fake: error(404), deployment: html })).toEqual([
    {
      probe: 'unknown-path',
      verdict: 'open',
      aspect: 'content-type',
      fake: 'application/json',
      deployment: 'text/html',
      reason: 'the spec asks JSON of the bodies of its own operations only: not of an empty body, nor of a request it does not define',
    },
    { probe: 'unknown-path', verdict: 'open', aspect: 'body', fake: '$: object', deployment: '$: not JSON', reason: 'the spec leaves this part of the body open (an optional or extra field, or the answer to a request it does not define)' },
    { probe: 'unknown-path', verdict: 'open', aspect: 'body', fake: '$.code: string', deployment: '$.code: absent', reason: 'the spec leaves this part of the body open (an optional or extra field, or the answer to a request it does not define)' },
    { probe: 'unknown-path', verdict: 'open', aspect: 'body', fake: '$.message: string', deployment: '$.message: absent', reason: 'the spec leaves this part of the body open (an optional or extra field, or the answer to a request it does not define)' },
    { probe: 'unknown-path', verdict: 'open', aspect: 'body', fake: '$.status: integer', deployment: '$.status: absent', reason: 'the spec leaves this part of the body open (an optional or extra field, or the answer to a request it does not define)' },
  ])
})

it('lists a difference in media type first, before the headers and the body', () => {
  const plain = typed(401, JSON.stringify({ code: 'x', message: 'm', status: 401 }), { 'content-type': 'text/plain' })
  const findings = compareOutcome({ probe: probe('list-no-key'), fake: answer(401, { code: 'x', message: 'm', status: 401 }, { 'www-authenticate': 'Bearer' }), deployment: plain })
  expect(rows(findings)).toEqual([
    ['contradiction', 'content-type', 'application/json', 'text/plain', 'deployment'],
    ['open', 'header WWW-Authenticate', 'present', 'absent', ''],
  ])
})

it('names only the side that broke the rule of each aspect, though the other broke another', () => {
  const plain = typed(401, JSON.stringify({ code: 'x', message: 'm', status: 401 }), { 'content-type': 'text/plain' })
  const findings = compareOutcome({ probe: probe('list-no-key'), fake: answer(401, { code: 'x', message: 'm' }), deployment: plain })
  expect(rows(findings)).toEqual([
    ['contradiction', 'content-type', 'application/json', 'text/plain', 'deployment'],
    ['contradiction', 'body', '$.status: absent', '$.status: integer', 'fake'],
  ])
  expect(findings[1]?.reason).toBe(`an Error body with no "status"; ${said('errorBody')}`)
})

it('counts only between two lists: a body that is not one is the body\'s contradiction', () => {
  const findings = compareOutcome({ probe: probe('list-default'), fake: answer(200, pets(20)), deployment: answer(200, { pets: pets(20) }) })
  expect(new Set(findings.map((each) => `${each.verdict} ${each.aspect} ${each.side ?? ''}`))).toEqual(new Set(['contradiction body deployment']))
  // Where the statuses differ, a count the spec pins still shows against an answer that is no list.
  const [status, count] = compareOutcome({ probe: probe('list-default'), fake: error(400), deployment: answer(200, pets(10)) })
  expect(status).toMatchObject({ verdict: 'contradiction', aspect: 'status', side: 'fake' })
  expect(count).toMatchObject({ verdict: 'contradiction', aspect: 'count', fake: 'not a list', deployment: '10 animals', side: 'deployment' })
})

it('compares a Location only on an animal created', () => {
  const listed = (headers: Record<string, string>) => answer(201, pets(3), headers)
  expect(rows(compareOutcome({ probe: probe('list-limit-3'), fake: listed({ location: '/v1/pets/1' }), deployment: listed({}) }))).toEqual([
    ['contradiction', 'status', '201', '201', 'both'],
  ])
})

describe('lists of different lengths', () => {
  const probe = (id: string): Probe => {
    const found = PARITY_PROBES.find((each) => each.id === id)
    if (found === undefined) throw new Error(`no probe ${id}`)
    return found
  }
  const list = (status: number, length: number): Observed => ({
    ok: true,
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(Array.from({ length }, (_, index) => ({ id: index + 1, name: `n${index}`, categoryId: 1 }))),
  })

  // The spec pins how many animals a list holds only for its 200; under another status both
  // answers are wrong already, and how long their lists are is left open, with the reason shown.
  it('calls lists of different lengths open, saying the spec leaves it open, when both sides answer the same status other than 200', () => {
    for (const status of [206, 503]) {
      const findings = compareOutcome({ probe: probe('list-limit-3'), fake: list(status, 3), deployment: list(status, 2) })
      expect(findings, String(status)).toContainEqual({
        probe: 'list-limit-3',
        verdict: 'open',
        aspect: 'count',
        fake: '3 animals',
        deployment: '2 animals',
        reason: 'the spec leaves this open',
      })
      expect(findings.find((finding) => finding.aspect === 'status'), String(status)).toMatchObject({ verdict: 'contradiction', side: 'both' })
    }
  })
})
