import { afterAll, beforeAll, expect, it } from 'vitest'
import { toParityJson } from '../../src/parity/report.js'
import { type ParityOptions, runParity } from '../../src/parity/run.js'
import { cite, SPEC, type SpecRuleName } from '../../src/spec/citations.js'
import { type IndependentOptions, startIndependentService } from '../support/independent-service/service.js'
import { PROVIDER_KEY, startVerifiableFake, type VerifiableFake } from '../support/pact-verification.js'

// What parity sends and expects, read as a user reads it: the JSON report's line for each probe
// (operation, request, the status the spec names or null where it is open, the rule) and how the
// fake and an independent implementation answered, then what the fake's Error says of each bad
// input, which shows that each probe meets the rule it is named for.
const closers: (() => Promise<void>)[] = []
let fake: VerifiableFake
beforeAll(async () => {
  fake = await startVerifiableFake()
  closers.push(() => fake.close())
})
afterAll(() => Promise.all(closers.map((close) => close())))

async function parityWith(service: IndependentOptions, extra: Partial<ParityOptions> = {}): ReturnType<typeof runParity> {
  const deployment = await startIndependentService(service)
  closers.push(() => deployment.close())
  return runParity({
    fake: { baseUrl: fake.baseUrl, apiKey: PROVIDER_KEY },
    deployment: { baseUrl: deployment.baseUrl, apiKey: PROVIDER_KEY },
    marker: '[animals-mock parity table-1]',
    timeoutMs: 5000,
    scenarios: [],
    ...extra,
  })
}

/** A rule that cites the spec, by its name in spec-citations.ts; an open rule as written. */
const citedAs = (rule: unknown): unknown => (Object.keys(SPEC) as SpecRuleName[]).find((name) => cite(name) === rule) ?? rule

const OPEN_LIMIT =
  'the spec bounds limit to 1..100 but not how a value outside is answered: refused (an error with the Error body) or brought within the bounds, both are open; answered as if valid or absent, it contradicts spec 4.1'
const OPEN_STATUS =
  'the spec does not say which error answers a status filter outside PetStatus; a list contradicts spec 4.1'
const OPEN_CONTENT_TYPE =
  'the spec asks for application/json bodies but does not say how another content type is answered'
const OPEN_PET_ID = 'the spec does not say how a petId that is not an integer is answered'
const OPEN_PATH = 'the spec defines no /animals; it does not say how an unknown path is answered'
const OPEN_PUT = 'the spec has no PUT; 404, 405 and 501 are all plausible answers'
const OPEN_DELETE = 'the spec has no DELETE; 404, 405 and 501 are all plausible answers'

it('sends every probe with the expectation the spec gives it, as the JSON report shows', async () => {
  const report = await parityWith({ keys: [PROVIDER_KEY], seeded: 30 })
  const json = toParityJson(report, { fake: 'fake', deployment: 'deployment', marker: 'm', strict: false }) as { probes: Record<string, unknown>[] }
  // id, operation, request, the spec's status, its rule, the fake's status, the independent implementation's
  expect(json.probes.map((each) => [each.id, each.operation, each.request, each.specStatus, citedAs(each.rule), each.fake, each.deployment])).toEqual([
    ['list-default', 'listPets', 'GET /pets', 200, 'listOk', 200, 200],
    ['list-limit-1', 'listPets', 'GET /pets?limit=1', 200, 'listOk', 200, 200],
    ['list-limit-3', 'listPets', 'GET /pets?limit=3', 200, 'listOk', 200, 200],
    ['list-limit-100', 'listPets', 'GET /pets?limit=100', 200, 'listOk', 200, 200],
    ['list-status-sold', 'listPets', 'GET /pets?status=sold', 200, 'listOk', 200, 200],
    ['list-limit-0', 'listPets', 'GET /pets?limit=0', null, OPEN_LIMIT, 400, 400],
    ['list-limit--1', 'listPets', 'GET /pets?limit=-1', null, OPEN_LIMIT, 400, 400],
    ['list-limit-101', 'listPets', 'GET /pets?limit=101', null, OPEN_LIMIT, 400, 400],
    ['list-limit-abc', 'listPets', 'GET /pets?limit=abc', null, OPEN_LIMIT, 400, 400],
    ['list-limit-1.5', 'listPets', 'GET /pets?limit=1.5', null, OPEN_LIMIT, 400, 400],
    ['list-status-bogus', 'listPets', 'GET /pets?status=bogus', null, OPEN_STATUS, 400, 400],
    ['list-status-toString', 'listPets', 'GET /pets?status=toString', null, OPEN_STATUS, 400, 400],
    ['list-status-SOLD', 'listPets', 'GET /pets?status=SOLD', null, OPEN_STATUS, 400, 400],
    ['create-with-status', 'createPet', 'POST /pets', 201, 'created', 201, 201],
    ['create-without-status', 'createPet', 'POST /pets', 201, 'created', 201, 201],
    ['create-without-name', 'createPet', 'POST /pets', 400, 'missingField', 400, 400],
    ['create-without-categoryId', 'createPet', 'POST /pets', 400, 'missingField', 400, 400],
    ['create-unknown-status', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-categoryId-text', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-categoryId-numeric-text', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-categoryId-null', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-categoryId-true', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-categoryId-fraction', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-name-number', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-empty-body', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-malformed-json', 'createPet', 'POST /pets', 400, 'badBody', 400, 400],
    ['create-text-plain', 'createPet', 'POST /pets', null, OPEN_CONTENT_TYPE, 400, 201],
    ['get-existing', 'getPet', 'GET /pets/{petId}', 200, 'found', 200, 200],
    ['get-unknown', 'getPet', 'GET /pets/9223372036854775807', 404, 'notFound', 404, 404],
    ['get-id-not-integer', 'getPet', 'GET /pets/abc', null, OPEN_PET_ID, 400, 404],
    ['list-no-key', 'listPets', 'GET /pets (no key)', 401, 'unauthorized', 401, 401],
    ['create-no-key', 'createPet', 'POST /pets (no key)', 401, 'unauthorized', 401, 401],
    ['get-no-key', 'getPet', 'GET /pets/{petId} (no key)', 401, 'unauthorized', 401, 401],
    ['list-empty-token', 'listPets', 'GET /pets (empty token)', 401, 'unauthorized', 401, 401],
    ['create-empty-token', 'createPet', 'POST /pets (empty token)', 401, 'unauthorized', 401, 401],
    ['get-empty-token', 'getPet', 'GET /pets/{petId} (empty token)', 401, 'unauthorized', 401, 401],
    ['list-invalid-key', 'listPets', 'GET /pets (invalid key)', 401, 'unauthorized', 401, 401],
    ['create-invalid-key', 'createPet', 'POST /pets (invalid key)', 401, 'unauthorized', 401, 401],
    ['get-invalid-key', 'getPet', 'GET /pets/{petId} (invalid key)', 401, 'unauthorized', 401, 401],
    ['list-wrong-scheme', 'listPets', 'GET /pets (Basic scheme)', 401, 'unauthorized', 401, 401],
    ['create-wrong-scheme', 'createPet', 'POST /pets (Basic scheme)', 401, 'unauthorized', 401, 401],
    ['get-wrong-scheme', 'getPet', 'GET /pets/{petId} (Basic scheme)', 401, 'unauthorized', 401, 401],
    ['create-no-key-bad-body', 'createPet', 'POST /pets (no key)', 401, 'unauthorized', 401, 401],
    ['create-invalid-key-bad-body', 'createPet', 'POST /pets (invalid key)', 401, 'unauthorized', 401, 401],
    ['unknown-path', 'other', 'GET /animals', null, OPEN_PATH, 404, 404],
    ['put-pet', 'other', 'PUT /pets/{petId}', null, OPEN_PUT, 405, 404],
    ['delete-pet', 'other', 'DELETE /pets/{petId}', null, OPEN_DELETE, 405, 404],
  ])
})

it('meets with each bad input the rule it is named for, as the fake\'s Error message says', async () => {
  const report = await parityWith({ keys: [PROVIDER_KEY], seeded: 30 })
  const messages = report.outcomes.flatMap((each) => (each.fake.ok && each.fake.status === 400 ? [[each.probe.id, (JSON.parse(each.fake.body) as { message: string }).message]] : []))
  expect(messages).toEqual([
    ['list-limit-0', "Query parameter 'limit' must be an integer from 1 to 100."],
    ['list-limit--1', "Query parameter 'limit' must be an integer from 1 to 100."],
    ['list-limit-101', "Query parameter 'limit' must be an integer from 1 to 100."],
    ['list-limit-abc', "Query parameter 'limit' must be an integer from 1 to 100."],
    ['list-limit-1.5', "Query parameter 'limit' must be an integer from 1 to 100."],
    ['list-status-bogus', "Query parameter 'status' must be one of available, pending, sold."],
    ['list-status-toString', "Query parameter 'status' must be one of available, pending, sold."],
    ['list-status-SOLD', "Query parameter 'status' must be one of available, pending, sold."],
    ['create-without-name', "Field 'name' is required."],
    ['create-without-categoryId', "Field 'categoryId' is required."],
    ['create-unknown-status', "Field 'status' must be one of available, pending, sold."],
    ['create-categoryId-text', "Field 'categoryId' must be a 64-bit integer."],
    ['create-categoryId-numeric-text', "Field 'categoryId' must be a 64-bit integer."],
    ['create-categoryId-null', "Field 'categoryId' must be a 64-bit integer."],
    ['create-categoryId-true', "Field 'categoryId' must be a 64-bit integer."],
    ['create-categoryId-fraction', "Field 'categoryId' must be a 64-bit integer."],
    ['create-name-number', "Field 'name' must be a string."],
    ['create-empty-body', 'A request body is required: a JSON object with name and categoryId.'],
    ['create-malformed-json', "The request body is not valid JSON: Object value expected after ':' at position 66."],
    ['create-text-plain', 'The body must be sent with Content-Type: application/json (UTF-8).'],
    ['get-id-not-integer', "Path parameter 'petId' must be a 64-bit integer."],
  ])
})

it('sends the auth probes a valid body, so only the bad-body ones tell a service that reads the body before the key', async () => {
  const report = await parityWith({ keys: [PROVIDER_KEY], seeded: 30, drift: 'body checked before the key' })
  expect(report.findings.filter((each) => each.verdict === 'contradiction').map((each) => [each.probe, each.aspect, each.fake, each.deployment])).toEqual([
    ['create-no-key-bad-body', 'status', '401', '400'],
    ['create-invalid-key-bad-body', 'status', '401', '400'],
  ])
})
