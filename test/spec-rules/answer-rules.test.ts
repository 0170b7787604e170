import { expect, it } from 'vitest'
import { credentialOf, type JudgedRequest, judgeAnswer, mediaType } from '../../src/spec-rules/answer-rules.js'
import { cite, SPEC } from '../../src/spec/citations.js'

const list = (query: string, credential: JudgedRequest['credential'] = 'key'): JudgedRequest => ({ operation: 'listPets', method: 'GET', path: '/pets', query, credential })
const create = (body: string, credential: JudgedRequest['credential'] = 'key'): JudgedRequest => ({ operation: 'createPet', method: 'POST', path: '/pets', query: '', credential, body })
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
const pets = (count: number, extra: Record<string, unknown> = {}) => Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `n${index}`, categoryId: 1, ...extra }))
const refusal = (status: number) => json(status, { code: 'bad', message: 'no', status })
const aspects = (request: JudgedRequest, answer: ReturnType<typeof json>) => judgeAnswer(request, answer).map((each) => each.aspect)

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
  expect([undefined, '', '   ', 'Bearer', 'Bearer ', '  Bearer   ', 'Basic abc', 'bearer k', 'Bearer k', '  Bearer k', 'BEARER  k  '].map(credentialOf)).toEqual([
    'none', 'none', 'none', 'empty-token', 'empty-token', 'empty-token', 'wrong-scheme', 'unknown', 'unknown', 'unknown', 'unknown',
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
  expect(aspects({ operation: undefined, method: 'DELETE', path: '/pets/7', query: '', credential: 'key' }, refusal(500))).toEqual([])
})

// The citation as a reader sees it, built here from the quote rather than by `cite`.
const said = (name: keyof typeof SPEC): string => `spec ${SPEC[name].section}: "${SPEC[name].quote}"`
const get = (id: string, method = 'GET'): JudgedRequest => ({ operation: 'getPet', method, path: `/pets/${id}`, query: '', credential: 'key' })
const pet = (fields: Record<string, unknown> = {}) => ({ id: 7, name: 'Biscuit', categoryId: 1, ...fields })

it('prints a citation as the section and the quote', () => {
  expect(cite('unauthorized')).toBe('spec 7: "When a request carries no valid bearer key, then the response is 401."')
  expect(cite('removal')).toBe('spec 9.2: "GET /pets/{petId} is deprecated with an announced removal date of 5 December 2030; until then it remains available."')
})

it('calls a server error on each operation a contradiction of its success row', () => {
  expect(judgeAnswer(list(''), refusal(500))).toEqual([{ aspect: 'status', reason: `a server error, which the spec does not answer to this request; ${said('listOk')}` }])
  expect(judgeAnswer(create('{"name":"a","categoryId":1}'), refusal(503))).toEqual([
    { aspect: 'status', reason: `a server error, which the spec does not answer to this request; ${said('created')}` },
  ])
  expect(judgeAnswer(get('7'), refusal(599))).toEqual([{ aspect: 'status', reason: `a server error, which the spec does not answer to this request; ${said('found')}` }])
  expect(judgeAnswer(list(''), refusal(499))).toEqual([])
})

it('calls another 2xx than the operation\'s own a contradiction, and only 2xx answers successes', () => {
  const sent = '{"name":"Biscuit","categoryId":1}'
  expect(judgeAnswer(create(sent), json(200, pet()))).toEqual([{ aspect: 'status', reason: `200 instead of 201; ${said('created')}` }])
  expect(judgeAnswer(create(sent), json(299, pet()))).toEqual([{ aspect: 'status', reason: `299 instead of 201; ${said('created')}` }])
  expect(judgeAnswer(list(''), json(204, []))).toEqual([{ aspect: 'status', reason: `204 instead of 200; ${said('listOk')}` }])
  expect(judgeAnswer(get('7'), json(201, pet()))).toEqual([{ aspect: 'status', reason: `201 instead of 200; ${said('found')}` }])
  // A 3xx or 1xx is not judged as a success: no Pet is looked for in it.
  expect(judgeAnswer(create(sent), json(300, { moved: true }))).toEqual([])
  expect(judgeAnswer(create(sent), json(100, { moved: true }))).toEqual([])
  expect(judgeAnswer(list(''), json(199, {}))).toEqual([])
})

it('judges a proxied request of unknown worth by its answer alone, and a refused one only by its 401', () => {
  expect(judgeAnswer(list('', 'unknown'), json(204, []))).toEqual([{ aspect: 'status', reason: `204 instead of 200; ${said('listOk')}` }])
  expect(judgeAnswer(list('', 'unknown'), refusal(401))).toEqual([])
  expect(judgeAnswer(list('', 'none'), json(201, []))).toEqual([
    { aspect: 'status', reason: `a request without Authorization was answered 201; ${said('unauthorized')}` },
  ])
})

it('names the credential a refused request carried, and leaves a server error to its own rule', () => {
  const cases = [
    ['none', 'a request without Authorization'],
    ['empty-token', 'a request with an empty bearer token'],
    ['wrong-scheme', 'a request with a scheme other than Bearer'],
    ['refused-key', 'a request with a key the service does not accept'],
  ] as const
  for (const [credential, text] of cases) {
    expect(judgeAnswer(list('', credential), refusal(403)), credential).toEqual([{ aspect: 'status', reason: `${text} was answered 403; ${said('unauthorized')}` }])
    expect(judgeAnswer(list('', credential), refusal(500)), credential).toEqual([
      { aspect: 'status', reason: `a server error, which the spec does not answer to this request; ${said('listOk')}` },
    ])
  }
})

it('reads the media type without its parameters, in any case, and the last of a repeated Content-Type', () => {
  const typed = (contentType: string) => ({ status: 200, headers: { 'content-type': contentType }, body: '[]' })
  const json = [
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON;charset=UTF-8',
    ' application/json ; charset=utf-8',
    'text/plain, application/json',
    'application/json; a="x, text/plain"',
    'application/json; a="x\\", text/plain"',
    'application/json; a="x, text/plain',
  ]
  for (const contentType of json) {
    expect(judgeAnswer(list(''), typed(contentType)), contentType).toEqual([])
  }
  for (const contentType of ['text/plain', 'application/problem+json', 'application/json-seq', 'application/json, text/plain', 'text/plain; a="x, application/json"']) {
    expect(judgeAnswer(list(''), typed(contentType)), contentType).toEqual([{ aspect: 'content-type', reason: said('json') }])
  }
  expect(judgeAnswer(list(''), { status: 200, headers: {}, body: '[]' })).toEqual([{ aspect: 'content-type', reason: said('json') }])
  expect(mediaType({ status: 200, headers: { 'content-type': 'Text/HTML ; charset=x' }, body: '' })).toBe('text/html')
  expect(mediaType({ status: 200, headers: { 'content-type': 'text/plain, application/json; charset=utf-8' }, body: '' })).toBe('application/json')
  expect(mediaType({ status: 200, headers: {}, body: '' })).toBe('')
})

it('asks no media type of an empty body, and judges no body of an answer to HEAD', () => {
  expect(judgeAnswer(list(''), { status: 401, headers: {}, body: '' })).toEqual([{ aspect: 'body', reason: `the answer 401 has no Error body; ${said('errorBody')}` }])
  expect(judgeAnswer({ ...list(''), method: 'HEAD' }, { status: 200, headers: { 'content-type': 'text/html' }, body: '<p>' })).toEqual([])
  expect(judgeAnswer({ ...list(''), method: 'HEAD' }, { status: 200, headers: { 'content-type': 'application/json' }, body: '' })).toEqual([])
  expect(judgeAnswer(get('7', 'HEAD'), { status: 200, headers: { 'content-type': 'application/json' }, body: '' })).toEqual([])
  expect(judgeAnswer(get('7', 'HEAD'), { status: 404, headers: {}, body: '' })).toEqual([])
})

it('requires the Error body on every error status from 400, naming each field that is missing or wrong', () => {
  const error = (status: number, body: string) => judgeAnswer(create('{"categoryId":1}'), { status, headers: { 'content-type': 'application/json' }, body })
  const withProblems = (text: string) => [{ aspect: 'body', reason: `an Error body with ${text}; ${said('errorBody')}` }]
  expect(error(400, '{"code":"missing","message":"no name","status":400}')).toEqual([])
  expect(error(400, 'oops')).toEqual([{ aspect: 'body', reason: `the answer 400 has no Error body; ${said('errorBody')}` }])
  for (const body of ['[]', 'null', '"missing"', '7', '[{"code":"x","message":"y","status":400}]']) {
    expect(error(400, body), body).toEqual([{ aspect: 'body', reason: `the answer 400 has no Error body; ${said('errorBody')}` }])
  }
  expect(error(400, '{}')).toEqual(withProblems('no "code", no "message", no "status"'))
  expect(error(400, '{"code":1,"message":null,"status":"400"}')).toEqual(withProblems('"code" not a string, "message" not a string, "status" "400" instead of 400, the HTTP status'))
  expect(error(400, '{"message":"m","status":400}')).toEqual(withProblems('no "code"'))
  expect(error(400, '{"code":"c","status":400}')).toEqual(withProblems('no "message"'))
  expect(error(422, '{"code":"c","message":"m","status":400}')).toEqual(withProblems('"status" 400 instead of 422, the HTTP status'))
  expect(judgeAnswer(list(''), json(399, { moved: 1 }))).toEqual([])
})

it('requires the animal asked for, compared as an integer, and no other check when the id is not a number', () => {
  expect(judgeAnswer(get('7'), json(200, pet({ id: 8 })))).toEqual([{ aspect: 'body', reason: `asked for animal 7, got animal 8; ${said('found')}` }])
  expect(judgeAnswer(get('17'), json(200, pet({ id: 1 })))).toEqual([{ aspect: 'body', reason: `asked for animal 17, got animal 1; ${said('found')}` }])
  expect(judgeAnswer(get('7'), json(200, pet()))).toEqual([])
  // 007 names animal 7, and an id past 2^53 is the animal asked for even where JSON.parse rounds it.
  expect(judgeAnswer(get('007'), json(200, pet()))).toEqual([])
  expect(judgeAnswer(get('9007199254740993'), { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":9007199254740993,"name":"Big","categoryId":1}' })).toEqual([])
  for (const id of ['abc', 'x7', '7x', '-7']) expect(judgeAnswer(get(id), json(200, pet())), id).toEqual([])
})

it('requires a found animal to be a Pet, each field of its type', () => {
  const notPet = (text: string, rule: keyof typeof SPEC) => [{ aspect: 'body', reason: `the body is not a Pet: ${text}; ${said(rule)}` }]
  expect(judgeAnswer(get('7'), { status: 200, headers: { 'content-type': 'application/json' }, body: 'nope' })).toEqual(notPet('not JSON', 'json'))
  expect(judgeAnswer(get('7'), json(200, [pet()]))).toEqual(notPet('not an object', 'petList'))
  expect(judgeAnswer(get('7'), json(200, null))).toEqual(notPet('not an object', 'petList'))
  expect(judgeAnswer(get('7'), json(200, pet({ id: '7' })))).toEqual(notPet('"id" is not an integer', 'petId'))
  expect(judgeAnswer(get('7'), json(200, pet({ id: 7.5 })))).toEqual(notPet('"id" is not an integer', 'petId'))
  expect(judgeAnswer(get('7'), json(200, pet({ name: 7 })))).toEqual(notPet('"name" is not a string', 'petName'))
  expect(judgeAnswer(get('7'), json(200, pet({ categoryId: '1' })))).toEqual(notPet('"categoryId" is not an integer', 'petCategoryId'))
  expect(judgeAnswer(get('7'), json(200, pet({ status: 'gone' })))).toEqual(notPet('"status" is not a PetStatus', 'petStatus'))
  for (const status of ['available', 'pending', 'sold']) expect(judgeAnswer(get('7'), json(200, pet({ status }))), status).toEqual([])
})

it('calls an animal added from a body the spec refuses a contradiction, saying what was wrong with it', () => {
  const added = (body: string) => judgeAnswer(create(body), json(201, pet()))
  const refused = (text: string, rule: keyof typeof SPEC) => [{ aspect: 'status', reason: `an animal with ${text} was added; ${said(rule)}` }]
  expect(added('nope')).toEqual(refused('a body that is not a JSON object', 'badBody'))
  expect(added('[{"name":"a","categoryId":1}]')).toEqual(refused('a body that is not a JSON object', 'badBody'))
  expect(added('null')).toEqual(refused('a body that is not a JSON object', 'badBody'))
  expect(added('"x"')).toEqual(refused('a body that is not a JSON object', 'badBody'))
  expect(added('{"categoryId":1}')).toEqual(refused('no name', 'missingField'))
  expect(added('{"name":"a"}')).toEqual(refused('no categoryId', 'missingField'))
  expect(added('{}')).toEqual(refused('no name', 'missingField'))
  expect(added('{"name":7,"categoryId":1}')).toEqual(refused('name 7', 'petName'))
  expect(added('{"name":"a","categoryId":"5"}')).toEqual(refused('categoryId "5"', 'petCategoryId'))
  expect(added('{"name":"a","categoryId":1,"status":"gone"}')).toEqual(refused('status "gone"', 'petStatus'))
  for (const status of ['available', 'pending', 'sold']) {
    expect(judgeAnswer(create(`{"name":"Biscuit","categoryId":1,"status":"${status}"}`), json(201, pet({ status }))), status).toEqual([])
  }
})

it('requires the created animal to be a Pet carrying every field sent', () => {
  const sent = create('{"name":"Biscuit","categoryId":3,"status":"sold"}')
  expect(judgeAnswer(sent, json(201, { id: 7, name: 'Other', categoryId: 3, status: 'pending' }))).toEqual([
    { aspect: 'body', reason: `the created animal's name, status is not what was sent; ${said('petFields')} (${said('created')})` },
  ])
  expect(judgeAnswer(sent, json(201, { id: 7, name: 'Biscuit', categoryId: 4, status: 'sold' }))).toEqual([
    { aspect: 'body', reason: `the created animal's categoryId is not what was sent; ${said('petFields')} (${said('created')})` },
  ])
  expect(judgeAnswer(sent, { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":' })).toEqual([
    { aspect: 'body', reason: `the body is not a Pet: not JSON; ${said('json')}` },
  ])
  expect(judgeAnswer(sent, json(201, { id: 7.5, name: 'Biscuit', categoryId: 3, status: 'sold' }))).toEqual([
    { aspect: 'body', reason: `the body is not a Pet: "id" is not an integer; ${said('petId')}` },
  ])
  // Without the body sent, only the Pet's shape is judged.
  const unknownBody: JudgedRequest = { operation: 'createPet', method: 'POST', path: '/pets', query: '', credential: 'key' }
  expect(judgeAnswer(unknownBody, json(201, pet({ name: 'Anything' })))).toEqual([])
  expect(judgeAnswer(unknownBody, json(201, [pet()]))).toEqual([{ aspect: 'body', reason: `the body is not a Pet: not an object; ${said('petList')}` }])
})

it('requires a list to be a JSON array of Pets, judging every item', () => {
  expect(judgeAnswer(list(''), json(200, { pets: [] }))).toEqual([{ aspect: 'body', reason: said('petList') }])
  expect(judgeAnswer(list(''), { status: 200, headers: { 'content-type': 'application/json' }, body: '[' })).toEqual([{ aspect: 'body', reason: said('petList') }])
  expect(judgeAnswer(list(''), json(200, [pet(), pet({ id: 8, name: null })]))).toEqual([
    { aspect: 'body', reason: `an item is not a Pet: "name" is not a string; ${said('petName')}` },
  ])
  expect(judgeAnswer(list(''), json(200, [pet(), 'x', pet({ id: 'y' })]))).toEqual([{ aspect: 'body', reason: `an item is not a Pet: not an object; ${said('petList')}` }])
  expect(judgeAnswer(list(''), json(200, [pet(), null]))).toEqual([{ aspect: 'body', reason: `an item is not a Pet: not an object; ${said('petList')}` }])
  expect(judgeAnswer(list(''), json(200, [pet(), pet({ categoryId: 1.5 })]))).toEqual([
    { aspect: 'body', reason: `an item is not a Pet: "categoryId" is not an integer; ${said('petCategoryId')}` },
  ])
})

it('says which status filter was not honoured, and that one outside PetStatus should not list', () => {
  expect(judgeAnswer(list('status=pending'), json(200, pets(2, { status: 'pending' })))).toEqual([])
  expect(judgeAnswer(list('status=pending'), json(200, [...pets(1, { status: 'pending' }), 'x']))).toEqual([
    { aspect: 'body', reason: `an item is not a Pet: not an object; ${said('petList')}` },
    { aspect: 'body', reason: `an animal whose status is not pending was listed; ${said('statusFilter')}` },
  ])
  expect(judgeAnswer(list('status=available'), json(200, pets(1)))).toEqual([
    { aspect: 'body', reason: `an animal whose status is not available was listed; ${said('statusFilter')}` },
  ])
  expect(judgeAnswer(list('status=bogus'), json(200, pets(2, { status: 'sold' })))).toEqual([
    { aspect: 'status', reason: `status=bogus is not a PetStatus but was answered as a list; ${said('statusFilter')}` },
  ])
  expect(judgeAnswer(list('status=SOLD'), { status: 200, headers: { 'content-type': 'application/json' }, body: 'x' })).toEqual([
    { aspect: 'status', reason: `status=SOLD is not a PetStatus but was answered as a list; ${said('statusFilter')}` },
    { aspect: 'body', reason: said('petList') },
  ])
})

it('says how a list broke its limit, at each bound', () => {
  const listed = (query: string, count: number) => judgeAnswer(list(query), json(200, pets(count)))
  const tooMany = (count: number, why: string) => [{ aspect: 'count', reason: `${count} animals listed, ${why}; ${said('limit')}` }]
  expect(listed('', 21)).toEqual(tooMany(21, 'more than the default 20'))
  expect(listed('', 20)).toEqual([])
  expect(listed('limit=1', 1)).toEqual([])
  expect(listed('limit=1', 2)).toEqual(tooMany(2, 'more than limit=1'))
  expect(listed('limit=10', 11)).toEqual(tooMany(11, 'more than limit=10'))
  expect(listed('limit=100', 100)).toEqual([])
  expect(listed('limit=100', 101)).toEqual(tooMany(101, 'more than limit=100'))
  expect(listed('limit=101', 100)).toEqual([])
  expect(listed('limit=101', 20)).toEqual([])
  expect(listed('limit=101', 101)).toEqual(tooMany(101, 'more than the maximum 100 for limit=101'))
  expect(listed('limit=0', 0)).toEqual([{ aspect: 'count', reason: `limit=0 was answered with no animals, as if it were valid; ${said('limit')}` }])
  expect(listed('limit=-1', 0)).toEqual([{ aspect: 'count', reason: `limit=-1 was answered with no animals, as if it were valid; ${said('limit')}` }])
  expect(listed('limit=-1', 20)).toEqual([])
  expect(listed('limit=abc', 20)).toEqual([{ aspect: 'count', reason: `limit=abc is not an integer but was answered with the default 20, as if absent; ${said('limit')}` }])
  expect(listed('limit=abc', 101)).toEqual(tooMany(101, 'more than the maximum 100'))
  expect(listed('limit=abc', 100)).toEqual([])
  // A number that is not an integer is no limit: 1.5 caps nothing, and 1e2 answered with 20 was read as absent.
  expect(listed('limit=1.5', 2)).toEqual([])
  expect(listed('limit=1e2', 20)).toEqual([{ aspect: 'count', reason: `limit=1e2 is not an integer but was answered with the default 20, as if absent; ${said('limit')}` }])
  expect(listed('limit=0x10', 17)).toEqual([])
  // Only a whole integer is a limit: one with other characters around its digits is not.
  expect(listed('limit=x5', 6)).toEqual([])
  expect(listed('limit=5x', 6)).toEqual([])
  expect(listed('limit=5x', 20)).toHaveLength(1)
})

it('calls a Sunset on getPet a contradiction unless it falls on 5 December 2030, GMT, every time it is stated', () => {
  const sunset = (value: string, request = get('7')) => judgeAnswer(request, json(200, pet(), { sunset: value }))
  const off = (value: string) => [{ aspect: 'header Sunset', reason: `Sunset says ${value}, not 5 December 2030; ${said('removal')}` }]
  for (const value of ['Thu, 05 Dec 2030 00:00:00 GMT', 'Thu, 05 Dec 2030 23:59:59 GMT', '2030-12-05', 'Thu, 05 Dec 2030 00:00:00 GMT, Thu, 05 Dec 2030 12:00:00 GMT']) {
    expect(sunset(value), value).toEqual([])
  }
  for (const value of ['Fri, 06 Dec 2030 00:00:00 GMT', 'Wed, 04 Dec 2030 23:59:59 GMT', 'Thu, 05 Dec 2030 01:00:00 +0200', 'never', '', 'Thu, 05 Dec 2030 00:00:00 GMT, Sun, 01 Dec 2030 00:00:00 GMT', 'Sun, 01 Dec 2030 00:00:00 GMT, Thu, 05 Dec 2030 00:00:00 GMT']) {
    expect(sunset(value), value).toEqual(off(value))
  }
  expect(judgeAnswer(get('7'), refusal(404))).toEqual([])
  // Only getPet is deprecated: a Sunset elsewhere is not the spec's.
  expect(sunset('Fri, 06 Dec 2030 00:00:00 GMT', list(''))).toEqual([{ aspect: 'body', reason: said('petList') }])
})
