import type { PetStatus } from './client.js'
import { UNKNOWN_PET_ID } from './provider-states.js'

/** The operation a probe exercises; `other` for a method the spec does not have. */
export type ProbeOperation = 'listPets' | 'createPet' | 'getPet' | 'other'

/** The credential a probe sends: the key, none, a key no service accepts, or the key under another scheme. */
export type ProbeAuth = 'key' | 'none' | 'invalid-key' | 'wrong-scheme'

/**
 * One request sent alike to the fake and the deployment, with what the spec says of its answer:
 * a `status` when the spec pins it, only a `rule` (why it is open) when it does not.
 */
export type Probe = {
  readonly id: string
  readonly operation: ProbeOperation
  readonly method: string
  /** Below the API base; `{petId}` stands for the animal the run created on each side. */
  readonly path: string
  readonly query?: string
  readonly auth: ProbeAuth
  /** `{name}` in the text stands for a name carrying the run's marker. */
  readonly body?: { readonly contentType?: string; readonly text: string }
  readonly expect: { readonly status?: number; readonly rule: string }
  /** A list must hold exactly this many animals: more than that many exist on both sides. */
  readonly count?: number
  /** A list must hold at most this many animals. */
  readonly maxCount?: number
  /** Every animal listed must have this status. */
  readonly everyStatus?: PetStatus
}

/** How many animals each side must hold before the probes run: more than the default limit. */
export const PARITY_MIN_ANIMALS = 21

const LIST_OK = 'listPets answers 200 with a JSON array of Pet (spec 4.1)'
const CREATED = 'createPet answers 201 with the new Pet (spec 4.2)'
const BAD_BODY = 'createPet answers 400 when the body is missing, lacks name or categoryId, or holds invalid values (spec 4.2, 7)'
const UNAUTHORIZED = 'a request without a valid bearer key is answered 401 (spec 5.3, 7)'
const OPEN_LIMIT = 'the spec bounds limit to 1..100 but does not say how a value outside is answered'

const json = (text: string): { contentType: string; text: string } => ({ contentType: 'application/json', text })
const named = (extra: string): string => `{"name":"{name}","categoryId":1${extra}}`

function list(id: string, query: string | undefined, expect: Probe['expect'], extra: Partial<Probe> = {}): Probe {
  const probe: Probe = { id, operation: 'listPets', method: 'GET', path: '/pets', auth: 'key', expect, ...extra }
  return query === undefined ? probe : { ...probe, query }
}

function create(id: string, body: NonNullable<Probe['body']>, expect: Probe['expect']): Probe {
  return { id, operation: 'createPet', method: 'POST', path: '/pets', auth: 'key', body, expect }
}

function get(id: string, path: string, expect: Probe['expect']): Probe {
  return { id, operation: 'getPet', method: 'GET', path, auth: 'key', expect }
}

const LIST_PROBES: readonly Probe[] = [
  list('list-default', undefined, { status: 200, rule: LIST_OK }, { count: 20 }),
  list('list-limit-1', 'limit=1', { status: 200, rule: LIST_OK }, { count: 1 }),
  list('list-limit-3', 'limit=3', { status: 200, rule: LIST_OK }, { count: 3 }),
  list('list-limit-100', 'limit=100', { status: 200, rule: LIST_OK }, { maxCount: 100 }),
  list('list-status-sold', 'status=sold', { status: 200, rule: LIST_OK }, { maxCount: 20, everyStatus: 'sold' }),
  list('list-limit-0', 'limit=0', { rule: OPEN_LIMIT }),
  list('list-limit-101', 'limit=101', { rule: OPEN_LIMIT }, { maxCount: 100 }),
  list('list-limit-abc', 'limit=abc', { rule: OPEN_LIMIT }),
  list('list-status-unknown', 'status=gone', { rule: 'the spec lists the PetStatus values but not how another status filter is answered' }),
]

const CREATE_PROBES: readonly Probe[] = [
  create('create-with-status', json(named(',"status":"available"')), { status: 201, rule: CREATED }),
  create('create-without-status', json(named('')), { status: 201, rule: CREATED }),
  create('create-without-name', json('{"categoryId":1}'), { status: 400, rule: BAD_BODY }),
  create('create-without-categoryId', json('{"name":"{name}"}'), { status: 400, rule: BAD_BODY }),
  create('create-unknown-status', json(named(',"status":"gone"')), { status: 400, rule: BAD_BODY }),
  create('create-categoryId-text', json('{"name":"{name}","categoryId":"one"}'), { status: 400, rule: BAD_BODY }),
  create('create-empty-body', json(''), { status: 400, rule: BAD_BODY }),
  create('create-malformed-json', json('{"name":"{name}","categoryId":'), { status: 400, rule: BAD_BODY }),
  create('create-text-plain', { contentType: 'text/plain', text: named('') }, {
    rule: 'the spec asks for application/json bodies but does not say how another content type is answered',
  }),
]

const GET_PROBES: readonly Probe[] = [
  get('get-existing', '/pets/{petId}', { status: 200, rule: 'getPet answers 200 with the Pet (spec 4.3)' }),
  get('get-unknown', `/pets/${UNKNOWN_PET_ID}`, { status: 404, rule: 'getPet answers 404 for an unknown animal (spec 4.3, 7)' }),
  get('get-id-not-integer', '/pets/abc', { rule: 'the spec does not say how a petId that is not an integer is answered' }),
]

const AUTH_CASES: readonly { readonly auth: Exclude<ProbeAuth, 'key'>; readonly suffix: string }[] = [
  { auth: 'none', suffix: 'no-key' },
  { auth: 'invalid-key', suffix: 'invalid-key' },
  { auth: 'wrong-scheme', suffix: 'wrong-scheme' },
]

const AUTH_PROBES: readonly Probe[] = AUTH_CASES.flatMap(({ auth, suffix }): Probe[] => [
  { ...list(`list-${suffix}`, undefined, { status: 401, rule: UNAUTHORIZED }), auth },
  { ...create(`create-${suffix}`, json(named('')), { status: 401, rule: UNAUTHORIZED }), auth },
  { ...get(`get-${suffix}`, '/pets/{petId}', { status: 401, rule: UNAUTHORIZED }), auth },
])

/**
 * Every probe, in the order sent: each operation, the documented bad inputs, the auth cases on
 * each operation, the deprecated operation's headers, and a method the spec does not have (last,
 * since on a real service it might act on the run's own animal).
 */
export const PARITY_PROBES: readonly Probe[] = [
  ...LIST_PROBES,
  ...CREATE_PROBES,
  ...GET_PROBES,
  ...AUTH_PROBES,
  {
    id: 'delete-pet',
    operation: 'other',
    method: 'DELETE',
    path: '/pets/{petId}',
    auth: 'key',
    expect: { rule: 'the spec has no DELETE; 404, 405 and 501 are all plausible answers' },
  },
]

/** The values a probe's placeholders take on one side. */
export type ProbeContext = { readonly petId: string; readonly name: string; readonly apiKey: string }

/** A probe as sent: method, path below the base with its query, headers and body. */
export type ProbeRequest = {
  readonly method: string
  readonly target: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
}

/** The key no service accepts, as the pact's invalid-key interactions send it. */
export const INVALID_KEY = 'not-a-valid-key'

/**
 * A probe's request on one side, its placeholders filled in.
 * @example toProbeRequest(probe, { petId: '31', name: 'Probe [m]', apiKey }).target // '/pets/31'
 */
export function toProbeRequest(probe: Probe, context: ProbeContext): ProbeRequest {
  const path = probe.path.replace('{petId}', encodeURIComponent(context.petId))
  const headers: Record<string, string> = { accept: 'application/json' }
  if (probe.auth === 'key') headers.authorization = `Bearer ${context.apiKey}`
  if (probe.auth === 'invalid-key') headers.authorization = `Bearer ${INVALID_KEY}`
  if (probe.auth === 'wrong-scheme') headers.authorization = `Basic ${context.apiKey}`
  if (probe.body?.contentType !== undefined) headers['content-type'] = probe.body.contentType
  const target = probe.query === undefined ? path : `${path}?${probe.query}`
  if (probe.body === undefined) return { method: probe.method, target, headers }
  // JSON.stringify(...).slice(1, -1) escapes the name for a JSON string.
  const body = probe.body.text.replace('{name}', JSON.stringify(context.name).slice(1, -1))
  return { method: probe.method, target, headers, body }
}

/** A probe's request as people read it, e.g. `GET /pets/{petId}` or `POST /pets (no key)`. */
export function describeProbe(probe: Probe): string {
  const target = probe.query === undefined ? probe.path : `${probe.path}?${probe.query}`
  const auth = { key: '', none: ' (no key)', 'invalid-key': ' (invalid key)', 'wrong-scheme': ' (Basic scheme)' }[probe.auth]
  return `${probe.method} ${target}${auth}`
}
