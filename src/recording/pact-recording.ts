import type { ObservedExchange } from '../fake/pipeline.js'
import { scrubberOfRequest } from '../service/credentials.js'
import { isDropped } from '../service/http.js'
import { API_KEY_PLACEHOLDER, INVALID_KEY } from '../contracts/placeholder-key.js'
import { isPetStatus, LIMIT, NEW_PET_FIELDS, OPERATIONS, type OperationId, operationOf, PET_STATUSES, type PetStatus, petPath } from '../spec/animals-service.js'

import { redactQuery } from '../service/credentials.js'
import { definedOnly } from '../service/defined-only.js'
import { isRecord, jsonOrUndefined } from '../service/json-value.js'
import { parseWholeNumber } from '../service/whole-number.js'
/**
 * Turns the app's own traffic to the fake into Pact V4 interactions that a real provider can be
 * verified against: matchers from the contract instead of the recorded values, provider states
 * inferred from what each request needed (the names `verify` sets up), a placeholder key, one
 * interaction per shape (operation, query parameters present, status, ...), and nothing the spec
 * leaves open. What the spec does not promise is never recorded; it becomes a warning.
 */
export type PactRecording = {
  readonly consumer: string
  record(exchange: ObservedExchange): void
  /** The interactions so far, sorted by description; the same traffic gives the same list. */
  interactions(): PactInteraction[]
  /** Why some exchanges were not recorded, each once, sorted. */
  warnings(): string[]
}

/** A Pact V4 synchronous HTTP interaction, as written to the file. */
export type PactInteraction = { readonly description: string } & Record<string, unknown>

/** The provider every recorded pact is for. */
export const RECORDED_PROVIDER = 'animals-service'

// Example values come from the contract's examples, never from the recorded traffic.
const EXAMPLE = { id: 4242, name: 'Biscuit', categoryId: 3 } as const

/** What an accepted key's `Authorization` matches in a pact: `Bearer` and RFC 6750's token68. */
const BEARER_KEY_PATTERN = '^Bearer [A-Za-z0-9\\-._~+/]+=*$'

type Auth = 'key' | 'none' | 'invalid'
// The interaction is built only when its shape is new or its description sorts first: a suite
// sends the same few shapes thousands of times, and each then costs a key and a description.
type Candidate = { readonly key: string; readonly description: string; build(): PactInteraction }

/** Where a recording is written, and for which consumer. */
export type RecordPactOptions = { readonly consumer: string; readonly dir: string }

// The recordings of this process by folder and consumer: every `createHandlers({ recordPact })`
// for the same pair adds to one, and `writePacts()` writes them all.
const RECORDINGS = new Map<string, { readonly recording: PactRecording; readonly dir: string }>()

/** The recording of this process for `consumer` in `dir`, made on first use. */
export function recordingFor(options: RecordPactOptions): PactRecording {
  const name = options.consumer.trim()
  const key = `${options.dir}\u0000${name}`
  let entry = RECORDINGS.get(key)
  if (entry === undefined) {
    entry = { recording: createPactRecording(name), dir: options.dir }
    RECORDINGS.set(key, entry)
  }
  return entry.recording
}

/** Every recording of this process with its folder. */
export function recordingsToWrite(): readonly { readonly recording: PactRecording; readonly dir: string }[] {
  return [...RECORDINGS.values()]
}

/** Creates an empty recording for `consumer`, a name that is also the file's (letters, digits, . _ -). */
export function createPactRecording(consumer: string): PactRecording {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(consumer)) {
    throw new Error(`the consumer must be a name of letters, digits, ".", "_" and "-", not ${JSON.stringify(consumer)}`)
  }
  const chosen = new Map<string, PactInteraction>()
  const warnings = new Set<string>()
  return {
    consumer,
    record(exchange) {
      const outcome = toInteraction(exchange)
      for (const warning of outcome.warnings) warnings.add(warning)
      if (outcome.candidate === undefined) return
      const { key, description, build } = outcome.candidate
      // Of one shape, the interaction whose description sorts first is kept, so the order tests ran
      // in never matters. Every value is the contract's example, so one description is one interaction.
      const kept = chosen.get(key)
      if (kept === undefined || description < kept.description) chosen.set(key, build())
    },
    interactions: () => [...chosen.values()].sort((a, b) => (a.description < b.description ? -1 : a.description > b.description ? 1 : 0)),
    warnings: () => [...warnings].sort(),
  }
}

function toInteraction({ request, reply, forced }: ObservedExchange): { candidate?: Candidate; warnings: string[] } {
  // What a warning names of the request, without a credential it carried (a query's api_key, say).
  const scrub = scrubberOfRequest(request)
  const what = scrub(`${request.method} ${request.basePath}${request.path}${request.search === '' ? '' : `?${redactQuery(request.search)}`}`)
  if (forced) return { warnings: [`${what}: a forced answer (a Prefer header or a forced rule) is a test's choice, not the service's: not recorded`] }
  if (isDropped(reply)) return { warnings: [`${what}: a dropped connection: not recorded`] }
  const auth = authOf(request.headers.authorization)
  // A HEAD names an operation too, but a pact interaction without a body would promise no Pet.
  const operation = request.method === 'HEAD' ? undefined : operationOf(request.method, request.path)
  if (operation === 'listPets') return listPets(what, request.search, reply.status, auth)
  if (operation === 'createPet') return createPet(what, request.body, reply.status, auth, reply.body)
  if (operation === 'getPet') return getPet(what, reply.status, auth)
  return { warnings: [`${what}: a request the spec does not define: not recorded`] }
}

function listPets(what: string, search: string, status: number, auth: Auth): { candidate?: Candidate; warnings: string[] } {
  const warnings: string[] = []
  const params = new URLSearchParams(search)
  for (const name of new Set(params.keys())) {
    if (name !== 'limit' && name !== 'status') warnings.push(`${what}: the spec defines no query parameter "${name}": left out of the pact`)
  }
  if (status === 401) return { candidate: unauthorized('list animals', 'listPets', auth), warnings }
  if (status !== 200) return { warnings: [...warnings, `${what}: ${status} is not an answer the spec lists for GET /pets: not recorded`] }
  const limit = parseWholeNumber(params.get('limit'), 0, 999)
  const filter = params.get('status')
  if (params.has('limit') && (limit === undefined || limit < LIMIT.min || limit > LIMIT.max)) {
    return { warnings: [...warnings, `${what}: a limit outside ${LIMIT.min}..${LIMIT.max} is answered as the spec leaves open: not recorded`] }
  }
  if (filter !== null && !isPetStatus(filter)) {
    return { warnings: [...warnings, `${what}: a status outside ${PET_STATUSES.join(', ')} is answered as the spec leaves open: not recorded`] }
  }
  const most = limit ?? LIMIT.default
  // The state asks for as many animals as fit, so the list is full: exactly `most` without a
  // filter (spec 4.1: the limit, default 20), at least one and at most `most` with one.
  const least = filter === null ? most : 1
  const query: Record<string, string[]> = {}
  if (limit !== undefined) query.limit = [String(limit)]
  if (filter !== null) query.status = [filter]
  const described = `a request to list ${filter === null ? '' : `${filter} `}animals${limit === undefined ? ' with the default limit' : ` with limit ${limit}`}`
  const build = (): PactInteraction => withStates(
    described,
    [{ name: 'animals exist', params: filter === null ? { atLeast: most } : { atLeast: 1, status: filter } }],
    request('listPets', 'key', { query }),
    {
      status: 200,
      // Without a filter an animal may have no status (spec 2: it is optional), so none is expected.
      body: Array.from({ length: least }, () => examplePet(filter ?? undefined)),
      matchingRules: {
        body: {
          $: rule({ match: 'type', min: least, max: most }),
          '$[*].id': rule({ match: 'integer' }),
          '$[*].name': rule({ match: 'type' }),
          '$[*].categoryId': rule({ match: 'integer' }),
          // Without a filter, a status may be absent or any of the enum; with one, it is that one.
          ...(filter === null ? {} : { '$[*].status': rule({ match: 'equality' }) }),
        },
      },
    },
  )
  // A parameter sent twice is still one parameter: the shape is the set of their names.
  const shape = `listPets ${status} ${[...new Set(params.keys())].filter((name) => name === 'limit' || name === 'status').sort().join(',')}`
  return { candidate: { key: shape, description: described, build }, warnings }
}

function createPet(what: string, bytes: Uint8Array | undefined, status: number, auth: Auth, answer: string | undefined): { candidate?: Candidate; warnings: string[] } {
  const sent = jsonOrUndefined(new TextDecoder().decode(bytes)) // no body decodes as '', which is no JSON either
  const warnings: string[] = []
  const fields = isRecord(sent) ? sent : {}
  for (const name of Object.keys(fields)) {
    if (!(NEW_PET_FIELDS as readonly string[]).includes(name)) warnings.push(`${what}: the spec defines no field "${name}" of NewPet: left out of the pact`)
  }
  const sentStatus = isPetStatus(fields.status) ? fields.status : undefined
  if (status === 401) return { candidate: unauthorized('add an animal', 'createPet', auth, newPetExample(true, true, undefined)), warnings }
  if (status === 201) {
    const body = newPetExample(true, true, sentStatus)
    const described = `a request to add an animal ${sentStatus === undefined ? 'without a status' : `with status ${sentStatus}`}`
    const build = (): PactInteraction => withStates(
      described,
      [],
      request('createPet', 'key', { body }),
      {
        status: 201,
        body: { id: EXAMPLE.id, ...body },
        matchingRules: {
          body: {
            '$.id': rule({ match: 'integer' }),
            '$.name': rule({ match: 'type' }),
            '$.categoryId': rule({ match: 'integer' }),
            // The created animal carries the status sent (spec 2: all fields of NewPet plus id).
            ...(sentStatus === undefined ? {} : { '$.status': rule({ match: 'equality' }) }),
          },
        },
      },
    )
    return { candidate: { key: `createPet 201 ${sentStatus === undefined ? '' : 'status'}`, description: described, build }, warnings }
  }
  if (status === 400) {
    // Only the 400s the spec promises: a missing name or categoryId (spec 7), a field of the wrong
    // type or a status outside the enum (4.2). A name too long for the fake is the fake's choice.
    const missing = !isRecord(sent) ? 'a body' : !('name' in fields) ? 'a name' : !('categoryId' in fields) ? 'a categoryId' : undefined
    const wrong = typeof fields.name !== 'string' ? 'name' : !Number.isInteger(fields.categoryId) ? 'categoryId' : 'status' in fields && sentStatus === undefined ? 'status' : undefined
    if (wrong === undefined) { // a missing field is a wrong one too: no name is no string, no categoryId no integer
      return { warnings: [...warnings, `${what}: a 400 for a reason the spec leaves open (${errorCodeOf(jsonOrUndefined(answer))}): not recorded`] }
    }
    if (missing === 'a body') return { warnings: [...warnings, `${what}: a 400 for a body that is not a JSON object: not recorded (the spec promises 400 for missing fields and invalid values)`] }
    const body = missing === undefined ? { ...newPetExample(true, true, undefined), [wrong as string]: wrongValueOf(wrong as string) } : newPetExample(missing !== 'a name', missing !== 'a categoryId', undefined)
    const described = missing === undefined ? `a request to add an animal with an invalid ${wrong}` : `a request to add an animal without ${missing}`
    return { candidate: { key: `createPet 400 ${described}`, description: described, build: () => withStates(described, [], request('createPet', 'key', { body }), errorResponse(400)) }, warnings }
  }
  return { warnings: [...warnings, `${what}: ${status} is not an answer the spec lists for POST /pets: not recorded`] }
}

function getPet(what: string, status: number, auth: Auth): { candidate?: Candidate; warnings: string[] } {
  const exists = [{ name: 'an animal exists', params: { name: EXAMPLE.name, categoryId: EXAMPLE.categoryId, status: 'available' } }]
  if (status === 401) return { candidate: unauthorized('get an animal', 'getPet', auth, undefined, exists), warnings: [] }
  if (status === 200) {
    const build = (): PactInteraction => withStates('a request to get an animal', exists, request('getPet', 'key'), {
      status: 200,
      body: examplePet('available'),
      matchingRules: {
        body: {
          '$.id': rule({ match: 'integer' }),
          '$.name': rule({ match: 'type' }),
          '$.categoryId': rule({ match: 'integer' }),
          '$.status': rule({ match: 'equality' }),
        },
      },
    })
    return { candidate: { key: 'getPet 200', description: 'a request to get an animal', build }, warnings: [] }
  }
  if (status === 404) {
    const described = 'a request to get an animal that does not exist'
    const build = (): PactInteraction => withStates(described, [{ name: 'no animal exists with the given id' }], request('getPet', 'key'), errorResponse(404))
    return { candidate: { key: 'getPet 404', description: described, build }, warnings: [] }
  }
  return { warnings: [`${what}: ${status} for GET /pets/{petId} is an answer the spec leaves open (an id that is not an integer): not recorded`] }
}

function unauthorized(action: string, operation: OperationId, auth: Auth, body?: object, states: object[] = []): Candidate {
  const described = `a request to ${action} ${auth === 'none' ? 'without a key' : 'with an invalid key'}`
  return { key: `${operation} 401 ${auth}`, description: described, build: () => withStates(described, states, request(operation, auth, body === undefined ? {} : { body }), errorResponse(401)) }
}

function request(operation: OperationId, auth: Auth, extra: { query?: Record<string, string[]>; body?: object } = {}): Record<string, unknown> {
  const { method, path } = OPERATIONS[operation]
  const byId = operation === 'getPet'
  const headers: Record<string, string[]> = {}
  // The recorded key is never written: the placeholder is the verifier's own, swapped for the real
  // key when it replays.
  if (auth === 'key') headers.Authorization = [`Bearer ${API_KEY_PLACEHOLDER}`]
  if (auth === 'invalid') headers.Authorization = [`Bearer ${INVALID_KEY}`]
  if (extra.body !== undefined) headers['Content-Type'] = ['application/json']
  const matchingRules: Record<string, unknown> = {}
  if (auth === 'key') matchingRules.header = { Authorization: rule({ match: 'regex', regex: BEARER_KEY_PATTERN }) }
  if (byId) matchingRules.path = rule({ match: 'type' })
  return {
    method,
    path: byId ? petPath(EXAMPLE.id) : path,
    ...(extra.query === undefined || Object.keys(extra.query).length === 0 ? {} : { query: extra.query }),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(extra.body === undefined ? {} : { body: jsonBody(extra.body) }),
    ...(Object.keys(matchingRules).length === 0 ? {} : { matchingRules }),
    // The animal's id is the one the provider state created: `verify` puts it in the path.
    ...(byId ? { generators: { path: { expression: petPath('${petId}'), type: 'ProviderState' } } } : {}),
  }
}

function errorResponse(status: number): { status: number; body: object; matchingRules: object } {
  return {
    status,
    body: { code: status === 401 ? 'unauthorized' : status === 404 ? 'pet_not_found' : 'invalid_body', message: 'An error.', status },
    // `code` and `message` are strings the spec leaves open; `status` repeats the HTTP status (spec 7).
    matchingRules: { body: { '$.code': rule({ match: 'type' }), '$.message': rule({ match: 'type' }), '$.status': rule({ match: 'equality' }) } },
  }
}

function withStates(description: string, states: object[], request: Record<string, unknown>, response: { status: number; body: unknown; matchingRules: object }): PactInteraction {
  return {
    description,
    pending: false,
    ...(states.length === 0 ? {} : { providerStates: states }),
    request,
    response: { status: response.status, headers: { 'Content-Type': ['application/json'] }, body: jsonBody(response.body), matchingRules: response.matchingRules },
    type: 'Synchronous/HTTP',
  }
}

function jsonBody(content: unknown): object {
  return { content, contentType: 'application/json', encoded: false }
}

function rule(matcher: Record<string, unknown>): object {
  return { combine: 'AND', matchers: [matcher] }
}

function examplePet(status: PetStatus | undefined): object {
  return { ...EXAMPLE, ...definedOnly({ status }) }
}

function newPetExample(name: boolean, categoryId: boolean, status: PetStatus | undefined): Record<string, unknown> {
  return { ...(name ? { name: EXAMPLE.name } : {}), ...(categoryId ? { categoryId: EXAMPLE.categoryId } : {}), ...definedOnly({ status }) }
}

function wrongValueOf(field: string): unknown {
  return field === 'name' ? 7 : field === 'categoryId' ? 'three' : 'unknown-status'
}

// Read only for a 401: a key that was sent was refused.
function authOf(header: string | undefined): Auth {
  return header === undefined ? 'none' : 'invalid'
}




function errorCodeOf(answer: unknown): string {
  return isRecord(answer) && typeof answer.code === 'string' ? answer.code : 'no Error body'
}
