import { UNKNOWN_PET_ID } from '../deployment/provider-states.js'
import { INVALID_KEY } from '../contracts/placeholder-key.js'
import { LIMIT, OPERATIONS, type OperationId, petPath } from '../spec/animals-service.js'
import { cite } from '../spec/citations.js'

/** The operation a probe exercises, as its reports name it; `other` for a method or path the spec does not have. */
export type ProbeOperation = OperationId | 'other'

/** The credential a probe sends: the key, none, `Bearer ` without a token, a key no service accepts, or the key under another scheme. */
export type ProbeAuth = 'key' | 'none' | 'empty-token' | 'invalid-key' | 'wrong-scheme'

/**
 * One request sent alike to the fake and the deployment, with what the spec says of its answer:
 * a `status` and the sentence that pins it, or only a `rule` saying why the status is open. The
 * rules that hold for every answer (`judgeAnswer`) apply either way.
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
}

/** How many animals each side must hold before the probes run: more than the default limit. */
export const PARITY_MIN_ANIMALS = 21

const json = (text: string): { contentType: string; text: string } => ({ contentType: 'application/json', text })
const named = (extra: string): string => `{"name":"{name}","categoryId":1${extra}}`

function list(id: string, query: string | undefined, expect: Probe['expect'], extra: Partial<Probe> = {}): Probe {
  const { method, path } = OPERATIONS.listPets
  const probe: Probe = { id, operation: 'listPets', method, path, auth: 'key', expect, ...extra }
  return query === undefined ? probe : { ...probe, query }
}

function create(id: string, body: NonNullable<Probe['body']>, expect: Probe['expect']): Probe {
  const { method, path } = OPERATIONS.createPet
  return { id, operation: 'createPet', method, path, auth: 'key', body, expect }
}

function get(id: string, path: string, expect: Probe['expect']): Probe {
  return { id, operation: 'getPet', method: OPERATIONS.getPet.method, path, auth: 'key', expect }
}

function listProbes(): Probe[] {
  const listOk = cite('listOk')
  const openLimit =
    `the spec bounds limit to ${LIMIT.min}..${LIMIT.max} but not how a value outside is answered: refused (an error with the Error body) or brought within the bounds, both are open; answered as if valid or absent, it contradicts spec 4.1`
  const openStatus = 'the spec does not say which error answers a status filter outside PetStatus; a list contradicts spec 4.1'
  return [
    list('list-default', undefined, { status: 200, rule: listOk }, { count: LIMIT.default }),
    list('list-limit-1', 'limit=1', { status: 200, rule: listOk }, { count: 1 }),
    list('list-limit-3', 'limit=3', { status: 200, rule: listOk }, { count: 3 }),
    list(`list-limit-${LIMIT.max}`, `limit=${LIMIT.max}`, { status: 200, rule: listOk }),
    list('list-status-sold', 'status=sold', { status: 200, rule: listOk }),
    ...[String(LIMIT.min - 1), '-1', String(LIMIT.max + 1), 'abc', '1.5'].map((limit) => list(`list-limit-${limit}`, `limit=${limit}`, { rule: openLimit })),
    ...['bogus', 'toString', 'SOLD'].map((status) => list(`list-status-${status}`, `status=${status}`, { rule: openStatus })),
  ]
}

function createProbes(): Probe[] {
  const created = cite('created')
  const badValue = cite('badBody')
  const missing = cite('missingField')
  return [
    create('create-with-status', json(named(',"status":"available"')), { status: 201, rule: created }),
    create('create-without-status', json(named('')), { status: 201, rule: created }),
    create('create-without-name', json('{"categoryId":1}'), { status: 400, rule: missing }),
    create('create-without-categoryId', json('{"name":"{name}"}'), { status: 400, rule: missing }),
    create('create-unknown-status', json(named(',"status":"gone"')), { status: 400, rule: badValue }),
    ...(
      [
        ['text', '"one"'],
        ['numeric-text', '"5"'],
        ['null', 'null'],
        ['true', 'true'],
        ['fraction', '1.5'],
      ] as const
    ).map(([kind, value]) => create(`create-categoryId-${kind}`, json(`{"name":"{name}","categoryId":${value}}`), { status: 400, rule: badValue })),
    create('create-name-number', json('{"name":7,"categoryId":1}'), { status: 400, rule: badValue }),
    create('create-empty-body', json(''), { status: 400, rule: badValue }),
    create('create-malformed-json', json('{"name":"{name}","categoryId":'), { status: 400, rule: badValue }),
    create('create-text-plain', { contentType: 'text/plain', text: named('') }, {
      rule: 'the spec asks for application/json bodies but does not say how another content type is answered',
    }),
  ]
}

function getProbes(): Probe[] {
  return [
    get('get-existing', OPERATIONS.getPet.path, { status: 200, rule: cite('found') }),
    get('get-unknown', petPath(UNKNOWN_PET_ID), { status: 404, rule: cite('notFound') }),
    get('get-id-not-integer', petPath('abc'), { rule: 'the spec does not say how a petId that is not an integer is answered' }),
  ]
}

function authProbes(): Probe[] {
  const unauthorized = cite('unauthorized')
  const badBody = json('{"categoryId":"one"}')
  const cases: readonly { readonly auth: Exclude<ProbeAuth, 'key'>; readonly suffix: string }[] = [
    { auth: 'none', suffix: 'no-key' },
    { auth: 'empty-token', suffix: 'empty-token' },
    { auth: 'invalid-key', suffix: 'invalid-key' },
    { auth: 'wrong-scheme', suffix: 'wrong-scheme' },
  ]
  return [
    ...cases.flatMap(({ auth, suffix }): Probe[] => [
      { ...list(`list-${suffix}`, undefined, { status: 401, rule: unauthorized }), auth },
      { ...create(`create-${suffix}`, json(named('')), { status: 401, rule: unauthorized }), auth },
      { ...get(`get-${suffix}`, OPERATIONS.getPet.path, { status: 401, rule: unauthorized }), auth },
    ]),
    // The key comes first: a bad body without a valid key is still a 401, never a 400.
    { ...create('create-no-key-bad-body', badBody, { status: 401, rule: unauthorized }), auth: 'none' },
    { ...create('create-invalid-key-bad-body', badBody, { status: 401, rule: unauthorized }), auth: 'invalid-key' },
  ]
}

/** Requests the spec does not define: whatever they are answered, the difference is open. */
function otherProbes(): Probe[] {
  return [
    {
      id: 'unknown-path',
      operation: 'other',
      method: 'GET',
      path: '/animals',
      auth: 'key',
      expect: { rule: 'the spec defines no /animals; it does not say how an unknown path is answered' },
    },
    {
      id: 'put-pet',
      operation: 'other',
      method: 'PUT',
      path: OPERATIONS.getPet.path,
      auth: 'key',
      body: json(named(',"status":"sold"')),
      expect: { rule: 'the spec has no PUT; 404, 405 and 501 are all plausible answers' },
    },
    {
      id: 'delete-pet',
      operation: 'other',
      method: 'DELETE',
      path: OPERATIONS.getPet.path,
      auth: 'key',
      expect: { rule: 'the spec has no DELETE; 404, 405 and 501 are all plausible answers' },
    },
  ]
}

/**
 * Every probe, in the order sent: each operation, the documented bad inputs and the values outside
 * the constraints, the auth cases on each operation and the order of the checks, the deprecated
 * operation, and methods and paths the spec does not have (last, since on a real service a PUT or
 * DELETE might act on the run's own animal).
 */
export const PARITY_PROBES: readonly Probe[] = [...listProbes(), ...createProbes(), ...getProbes(), ...authProbes(), ...otherProbes()]

/** The values a probe's placeholders take on one side. */
export type ProbeContext = { readonly petId: string; readonly name: string; readonly apiKey: string }

/** A probe as sent: method, path below the base with its query, headers and body. */
export type ProbeRequest = {
  readonly method: string
  readonly target: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
}

/**
 * A probe's request on one side, its placeholders filled in.
 * @example toProbeRequest(probe, { petId: '31', name: 'Probe [m]', apiKey }).target // '/pets/31'
 */
export function toProbeRequest(probe: Probe, context: ProbeContext): ProbeRequest {
  const path = probe.path.replace('{petId}', encodeURIComponent(context.petId))
  const headers: Record<string, string> = { accept: 'application/json' }
  if (probe.auth === 'key') headers.authorization = `Bearer ${context.apiKey}`
  if (probe.auth === 'empty-token') headers.authorization = 'Bearer '
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
  const auth = { key: '', none: ' (no key)', 'empty-token': ' (empty token)', 'invalid-key': ' (invalid key)', 'wrong-scheme': ' (Basic scheme)' }[probe.auth]
  return `${probe.method} ${target}${auth}`
}
