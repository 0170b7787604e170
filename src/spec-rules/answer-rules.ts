import { createScrubber, type Scrubber } from '../service/credentials.js'
import { DEPRECATED_GET_PET, isPetStatus, LIMIT, NEW_PET_FIELDS, OPERATIONS, type OperationId, petIdOf, REMOVAL_DAY_IN_WORDS } from '../spec/animals-service.js'
import { cite, type SpecRuleName } from '../spec/citations.js'
import { isRecord, jsonOrUndefined } from '../service/json-value.js'

/** An answer as the rules read it: status, headers with lower-case names, body text. */
export type ObservedAnswer = { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }


/**
 * What the request's `Authorization` amounted to: a key the service accepts, none, `Bearer ` with
 * no token, another scheme, a key the service refuses, or (a proxy cannot tell) a token of unknown worth.
 */
export type Credential = 'key' | 'none' | 'empty-token' | 'wrong-scheme' | 'refused-key' | 'unknown'

/** A request as the rules read it. */
export type JudgedRequest = {
  /** The operation it names; `undefined` for a method or path the spec does not have. */
  readonly operation: OperationId | undefined
  readonly method: string
  /** Below the API base, e.g. `/pets/12`. */
  readonly path: string
  /** The query string without `?`. */
  readonly query: string
  readonly credential: Credential
  /** The body sent, as text. */
  readonly body?: string
  /**
   * The credentials the request carried (`credentialsOf`): a value a reason quotes is scrubbed of
   * them first, so a service that echoes the key cannot put it in a report.
   */
  readonly credentials?: readonly string[]
}

/** The parts of an answer a rule can be about. */
export type Aspect =
  | 'status'
  | 'content-type'
  | 'body'
  | 'count'
  | 'header Location'
  | 'header Deprecation'
  | 'header Sunset'
  | 'header Link'
  | 'header WWW-Authenticate'
  | 'header Allow'
  | 'stored animals'
  | 'ids'
  | 'availability'

/** A way an answer contradicts the spec: which part, what happened, and the sentence it breaks. */
export type Violation = { readonly aspect: Aspect; readonly reason: string }

/**
 * What an `Authorization` value amounts to without knowing the service's keys.
 * @example credentialOf('Bearer ') // 'empty-token'
 */
export function credentialOf(authorization: string | undefined): Credential {
  if (authorization === undefined || authorization.trim() === '') return 'none'
  const [scheme, ...rest] = authorization.trim().split(/ +/) as [string, ...string[]]
  if (scheme.toLowerCase() !== 'bearer') return 'wrong-scheme'
  return rest.length === 0 ? 'empty-token' : 'unknown'
}

/** The sentence of the spec that pins each operation's success. */
const SUCCESS_OF = { listPets: 'listOk', createPet: 'created', getPet: 'found' } as const satisfies Record<OperationId, SpecRuleName>
const REMOVAL_DAY = Date.parse(`${DEPRECATED_GET_PET.removal}T00:00:00Z`)
const DAY_MS = 86_400_000

function isRefused(credential: Credential): boolean {
  return credential === 'none' || credential === 'empty-token' || credential === 'wrong-scheme' || credential === 'refused-key'
}

/**
 * Every way an answer contradicts the spec, judged from the request and the answer alone: the
 * key checked first, JSON bodies, the Error body with `status` repeating the HTTP status, Pets
 * with their field types, `limit` and the `status` filter honoured (and refused when outside their
 * constraints), a created animal that is what was sent, the removal date where a `Sunset` states one.
 * What the spec leaves open (codes, messages, headers it does not name, order) is never a violation.
 */
export function judgeAnswer(request: JudgedRequest, answer: ObservedAnswer): Violation[] {
  if (request.operation === undefined) return []
  const violations: Violation[] = []
  const { status } = answer
  if (status >= 500) {
    violations.push({ aspect: 'status', reason: `a server error, which the spec does not answer to this request; ${cite(SUCCESS_OF[request.operation])}` })
  }
  const success = OPERATIONS[request.operation].success
  if (status >= 200 && status < 300 && status !== success && !isRefused(request.credential)) {
    violations.push({ aspect: 'status', reason: `${status} instead of ${success}; ${cite(SUCCESS_OF[request.operation])}` })
  }
  if (isRefused(request.credential) && status !== 401 && status < 500) {
    violations.push({ aspect: 'status', reason: `${refusalOf(request.credential)} was answered ${status}; ${cite('unauthorized')}` })
  }
  const hasBody = request.method !== 'HEAD' && answer.body !== ''
  if (hasBody && mediaType(answer) !== 'application/json') violations.push({ aspect: 'content-type', reason: cite('json') })
  const body = request.method === 'HEAD' ? undefined : readJson(answer.body)
  // What a reason quotes of the request or the answer, never its own words, passes through this.
  const quote = createScrubber(request.credentials ?? [])
  if (status >= 400 && body !== undefined) violations.push(...checkErrorBody(body, status, quote))
  if (status >= 200 && status < 300) violations.push(...checkSuccess(request, body, quote))
  if (request.operation === 'getPet') violations.push(...checkSunset(answer, quote))
  return violations
}

function refusalOf(credential: Credential): string {
  switch (credential) {
    case 'none':
      return 'a request without Authorization'
    case 'empty-token':
      return 'a request with an empty bearer token'
    case 'wrong-scheme':
      return 'a request with a scheme other than Bearer'
    default:
      return 'a request with a key the service does not accept'
  }
}

/**
 * The media type of an answer, lower case and without parameters; empty when there is none. A
 * repeated `Content-Type` arrives joined with ", " and, as Fetch reads it, the last one counts.
 * @example mediaType({ status: 200, headers: { 'content-type': 'text/plain, application/json; charset=utf-8' }, body: '' }) // 'application/json'
 */
export function mediaType(answer: ObservedAnswer): string {
  // A comma inside a quoted parameter value is part of that value, not a second header.
  const values = (answer.headers['content-type'] ?? '').match(/(?:[^,"]|"(?:[^"\\]|\\.)*"?)+/g) ?? []
  return (values.at(-1) ?? '').replace(/;.*/, '').trim().toLowerCase()
}

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false } | undefined

function checkErrorBody(body: NonNullable<Parsed>, status: number, quote: Scrubber): Violation[] {
  if (!body.ok || !isRecord(body.value)) {
    return [{ aspect: 'body', reason: `the answer ${status} has no Error body; ${cite('errorBody')}` }]
  }
  const fields = body.value
  const problems: string[] = []
  if (typeof fields.code !== 'string') problems.push(fields.code === undefined ? 'no "code"' : '"code" not a string')
  if (typeof fields.message !== 'string') problems.push(fields.message === undefined ? 'no "message"' : '"message" not a string')
  if (fields.status === undefined) problems.push('no "status"')
  else if (fields.status !== status) problems.push(`"status" ${quote(JSON.stringify(fields.status))} instead of ${status}, the HTTP status`)
  return problems.length === 0 ? [] : [{ aspect: 'body', reason: `an Error body with ${problems.join(', ')}; ${cite('errorBody')}` }]
}

function checkSuccess(request: JudgedRequest, body: Parsed, quote: Scrubber): Violation[] {
  const violations: Violation[] = []
  if (request.operation === 'createPet') violations.push(...checkCreated(request, body, quote))
  if (request.operation === 'listPets') violations.push(...checkList(request, body, quote))
  if (request.operation === 'getPet' && body !== undefined) {
    const problem = body.ok ? petProblem(body.value) : NOT_JSON
    if (problem !== undefined) {
      violations.push({ aspect: 'body', reason: `the body is not a Pet: ${problem.text}; ${cite(problem.rule)}` })
    } else {
      if (body.ok && isRecord(body.value)) {
        // Compared as numbers: `007` names animal 7, and past 2^53 JSON.parse rounds the id as Number does the path's.
        if (/^[0-9]+$/.test(idText(request.path)) && body.value.id !== Number(idText(request.path))) {
          violations.push({ aspect: 'body', reason: `asked for animal ${quote(idText(request.path))}, got animal ${String(body.value.id)}; ${cite('found')}` })
        }
      }
    }
  }
  return violations
}

function idText(path: string): string {
  // Only a getPet request gets here, whose path names one animal.
  return petIdOf(path) ?? ''
}

function checkCreated(request: JudgedRequest, body: Parsed, quote: Scrubber): Violation[] {
  const sent = judgeSentPet(request.body, quote)
  if (sent.problem !== undefined) {
    return [{ aspect: 'status', reason: `an animal with ${sent.problem.text} was added; ${cite(sent.problem.rule)}` }]
  }
  const problem = body === undefined ? undefined : body.ok ? petProblem(body.value) : NOT_JSON
  if (problem !== undefined) return [{ aspect: 'body', reason: `the body is not a Pet: ${problem.text}; ${cite(problem.rule)}` }]
  if (sent.pet === undefined || body === undefined || !body.ok || !isRecord(body.value)) return []
  const differing = NEW_PET_FIELDS.filter((field) => sent.pet?.[field] !== undefined && sent.pet[field] !== (body.value as Record<string, unknown>)[field])
  return differing.length === 0
    ? []
    : [{ aspect: 'body', reason: `the created animal's ${differing.join(', ')} is not what was sent; ${cite('petFields')} (${cite('created')})` }]
}

function checkList(request: JudgedRequest, body: Parsed, quote: Scrubber): Violation[] {
  const query = new URLSearchParams(request.query)
  const violations: Violation[] = []
  const statusFilter = query.get('status')
  if (statusFilter !== null && !isPetStatus(statusFilter)) {
    violations.push({ aspect: 'status', reason: `status=${quote(statusFilter)} is not a PetStatus but was answered as a list; ${cite('statusFilter')}` })
  }
  if (body === undefined) return violations
  if (!body.ok || !Array.isArray(body.value)) return [...violations, { aspect: 'body', reason: cite('petList') }]
  const list: readonly unknown[] = body.value
  const bad = list.map(petProblem).find((problem) => problem !== undefined)
  if (bad !== undefined) violations.push({ aspect: 'body', reason: `an item is not a Pet: ${bad.text}; ${cite(bad.rule)}` })
  violations.push(...checkLimit(query.get('limit'), list.length, quote))
  if (isPetStatus(statusFilter) && list.some((pet) => !isRecord(pet) || pet.status !== statusFilter)) {
    violations.push({ aspect: 'body', reason: `an animal whose status is not ${statusFilter} was listed; ${cite('statusFilter')}` })
  }
  return violations
}

/**
 * `limit` within `LIMIT.min`..`LIMIT.max` caps the list. Outside them, or not an integer, the spec
 * does not say how the list is answered (refused, or brought within the bounds: both are open), but
 * an answer that treats the value as valid, or as absent, contradicts it: no animals below the
 * minimum, more than the maximum above it, the default for a value that is not a number.
 */
function checkLimit(limit: string | null, count: number, quote: Scrubber): Violation[] {
  const tooMany = (most: number, why: string): Violation[] =>
    count > most ? [{ aspect: 'count', reason: `${count} animals listed, ${why}; ${cite('limit')}` }] : []
  if (limit === null) return tooMany(LIMIT.default, `more than the default ${LIMIT.default}`)
  const value = /^-?[0-9]+$/.test(limit) ? Number(limit) : Number.NaN
  const shown = quote(limit)
  if (value >= LIMIT.min && value <= LIMIT.max) return tooMany(value, `more than limit=${shown}`)
  if (value < LIMIT.min) return count === 0 ? [{ aspect: 'count', reason: `limit=${shown} was answered with no animals, as if it were valid; ${cite('limit')}` }] : []
  if (value > LIMIT.max) return tooMany(LIMIT.max, `more than the maximum ${LIMIT.max} for limit=${shown}`)
  return count === LIMIT.default
    ? [{ aspect: 'count', reason: `limit=${shown} is not an integer but was answered with the default ${LIMIT.default}, as if absent; ${cite('limit')}` }]
    : tooMany(LIMIT.max, `more than the maximum ${LIMIT.max}`)
}

/**
 * The spec announces the removal for a day: a `Sunset` that states a date must state that
 * day, and a repeated one (joined with ", ", each HTTP-date holding a comma of its own) every time.
 */
function checkSunset(answer: ObservedAnswer, quote: Scrubber): Violation[] {
  const { sunset } = answer.headers
  if (sunset === undefined) return []
  const onTheDay = sunset.split(/, (?=[A-Za-z]{3}, )/).every((date) => {
    const at = Date.parse(date)
    return at >= REMOVAL_DAY && at < REMOVAL_DAY + DAY_MS
  })
  return onTheDay ? [] : [{ aspect: 'header Sunset', reason: `Sunset says ${quote(sunset)}, not ${REMOVAL_DAY_IN_WORDS}; ${cite('removal')}` }]
}

type Problem = { readonly text: string; readonly rule: 'petId' | 'petName' | 'petCategoryId' | 'petStatus' | 'petList' | 'json' | 'badBody' | 'missingField' }

const NOT_JSON: Problem = { text: 'not JSON', rule: 'json' }

function petProblem(value: unknown): Problem | undefined {
  if (!isRecord(value)) return { text: 'not an object', rule: 'petList' }
  if (!Number.isInteger(value.id)) return { text: '"id" is not an integer', rule: 'petId' }
  if (typeof value.name !== 'string') return { text: '"name" is not a string', rule: 'petName' }
  if (!Number.isInteger(value.categoryId)) return { text: '"categoryId" is not an integer', rule: 'petCategoryId' }
  if (value.status !== undefined && !isPetStatus(value.status)) return { text: '"status" is not a PetStatus', rule: 'petStatus' }
  return undefined
}

type SentPet = { readonly pet?: Record<string, unknown>; readonly problem?: Problem }

// The NewPet a request sent, judged as the spec has it; `undefined` body means the request's body is not known.
function judgeSentPet(text: string | undefined, quote: Scrubber): SentPet {
  if (text === undefined) return {}
  const parsed = readJson(text)
  if (!parsed.ok || !isRecord(parsed.value)) return { problem: { text: 'a body that is not a JSON object', rule: 'badBody' } }
  const pet = parsed.value
  if (pet.name === undefined || pet.categoryId === undefined) return { problem: { text: `no ${pet.name === undefined ? 'name' : 'categoryId'}`, rule: 'missingField' } }
  if (typeof pet.name !== 'string') return { problem: { text: `name ${quote(JSON.stringify(pet.name))}`, rule: 'petName' } }
  if (!Number.isInteger(pet.categoryId)) return { problem: { text: `categoryId ${quote(JSON.stringify(pet.categoryId))}`, rule: 'petCategoryId' } }
  if (pet.status !== undefined && !isPetStatus(pet.status)) return { problem: { text: `status ${quote(JSON.stringify(pet.status))}`, rule: 'petStatus' } }
  return { pet }
}


/** An answer's body read as JSON: a value, or not JSON at all. */
function readJson(text: string): NonNullable<Parsed> {
  const value = jsonOrUndefined(text)
  return value === undefined ? { ok: false } : { ok: true, value }
}
