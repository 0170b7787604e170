import { PET_STATUSES } from '../core/pets.js'
import type { Probe } from './parity-probes.js'

/** An answer as parity compares it: status, headers with lower-case names, body text. */
export type ObservedAnswer = { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }

/** The parts of an answer parity looks at. */
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

/** A way an answer contradicts the spec, and which rule. */
export type Violation = { readonly aspect: Aspect; readonly reason: string }

const ERROR_BODY = 'every error answer carries the Error body {code, message, status} (spec 7)'
const DEPRECATED = 'getPet is deprecated, to be removed on 5 December 2030 (spec 4.3, 9.2)'

/**
 * Where an answer to a probe contradicts the spec: a status the spec pins, JSON bodies, the Error
 * body with `status` repeating the HTTP status, Pet fields, list sizes given by `limit`, and the
 * deprecation headers of `getPet`. What the spec leaves open is never a violation.
 */
export function checkAnswer(probe: Probe, answer: ObservedAnswer): Violation[] {
  const violations: Violation[] = []
  const { status } = answer
  if (status >= 500) violations.push({ aspect: 'status', reason: 'a server error, which no operation of the spec answers' })
  else if (probe.expect.status !== undefined && status !== probe.expect.status) {
    violations.push({ aspect: 'status', reason: probe.expect.rule })
  }
  const type = mediaType(answer)
  if (answer.body !== '' && type !== 'application/json') {
    violations.push({ aspect: 'content-type', reason: 'bodies are JSON, application/json (spec 1)' })
  }
  const body = parseJson(answer.body)
  if (status >= 400) violations.push(...checkErrorBody(body, status))
  else if (status >= 200 && status < 300) violations.push(...checkSuccess(probe, body))
  if (probe.operation === 'getPet' && status === 200) violations.push(...checkDeprecation(answer))
  return violations
}

/** The media type of an answer, lower case and without parameters; empty when there is none. */
export function mediaType(answer: ObservedAnswer): string {
  return (answer.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

function checkErrorBody(body: Parsed, status: number): Violation[] {
  if (!body.ok || typeof body.value !== 'object' || body.value === null || Array.isArray(body.value)) {
    return [{ aspect: 'body', reason: `the answer ${status} has no Error body; ${ERROR_BODY}` }]
  }
  const fields = body.value as Record<string, unknown>
  const problems: string[] = []
  if (typeof fields.code !== 'string') problems.push(fields.code === undefined ? 'no "code"' : '"code" not a string')
  if (typeof fields.message !== 'string') problems.push(fields.message === undefined ? 'no "message"' : '"message" not a string')
  if (fields.status === undefined) problems.push('no "status"')
  else if (fields.status !== status) problems.push(`"status" ${JSON.stringify(fields.status)} instead of ${status}, the HTTP status`)
  return problems.length === 0 ? [] : [{ aspect: 'body', reason: `an Error body with ${problems.join(', ')}; ${ERROR_BODY}` }]
}

function checkSuccess(probe: Probe, body: Parsed): Violation[] {
  if (probe.operation === 'other') return []
  if (probe.operation === 'createPet' || probe.operation === 'getPet') {
    const problem = body.ok ? petProblem(body.value) : 'not JSON'
    return problem === undefined ? [] : [{ aspect: 'body', reason: `the body is not a Pet: ${problem} (spec 2)` }]
  }
  if (!body.ok || !Array.isArray(body.value)) return [{ aspect: 'body', reason: 'listPets answers a JSON array of Pet (spec 2, 4.1)' }]
  const list: readonly unknown[] = body.value
  const violations: Violation[] = []
  const bad = list.map(petProblem).find((problem) => problem !== undefined)
  if (bad !== undefined) violations.push({ aspect: 'body', reason: `an item is not a Pet: ${bad} (spec 2)` })
  if (probe.count !== undefined && list.length !== probe.count) {
    const limit = probe.query === undefined ? 'limit defaults to 20' : `${probe.query} asks for them`
    violations.push({ aspect: 'count', reason: `a list of ${probe.count} animals is due: ${limit} and more exist (spec 4.1, 8)` })
  }
  if (probe.maxCount !== undefined && list.length > probe.maxCount) {
    violations.push({ aspect: 'count', reason: `at most ${probe.maxCount} animals are due (limit, spec 4.1, 8)` })
  }
  const { everyStatus } = probe
  if (everyStatus !== undefined && list.some((pet) => (pet as { status?: unknown } | null)?.status !== everyStatus)) {
    violations.push({ aspect: 'body', reason: `only animals with status ${everyStatus} (the status filter, spec 4.1)` })
  }
  return violations
}

function petProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object'
  const pet = value as Record<string, unknown>
  if (!Number.isInteger(pet.id)) return '"id" is not an integer'
  if (typeof pet.name !== 'string') return '"name" is not a string'
  if (!Number.isInteger(pet.categoryId)) return '"categoryId" is not an integer'
  if (pet.status !== undefined && !(PET_STATUSES as readonly unknown[]).includes(pet.status)) return '"status" is not a PetStatus'
  return undefined
}

// The spec announces the deprecation and the removal date; HTTP carries them in these headers
// (RFC 9745, RFC 8594, RFC 8288), as the contract and the pact do.
function checkDeprecation(answer: ObservedAnswer): Violation[] {
  const violations: Violation[] = []
  const { deprecation, sunset, link } = answer.headers
  if (deprecation === undefined) violations.push({ aspect: 'header Deprecation', reason: `no Deprecation header; ${DEPRECATED}` })
  if (sunset === undefined) violations.push({ aspect: 'header Sunset', reason: `no Sunset header; ${DEPRECATED}` })
  else if (!sunset.includes('05 Dec 2030')) {
    violations.push({ aspect: 'header Sunset', reason: `Sunset is not 5 December 2030; ${DEPRECATED}` })
  }
  if (link === undefined) {
    violations.push({ aspect: 'header Link', reason: 'no Link to the successor, GET /pets with the status filter (spec 4.3)' })
  }
  return violations
}

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false }

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}
