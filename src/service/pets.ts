import { type ApiError, apiError } from './errors.js'
import { fail, ok, type Result } from './http.js'
import { type Int64, isPetStatus, LIMIT, type NewPet, PET_STATUSES, type Pet, type PetStatus } from '../spec/animals-service.js'
import { parseInt64Text, toInt64 } from './int64.js'
import { parseWholeNumber } from './whole-number.js'

/**
 * The longest `name` the fake stores, in characters. The spec states no length limit (section 8);
 * without one a few animals with 1 MiB names make every list answer a hundred megabytes.
 */
export const MAX_NAME_LENGTH = 4096

/** The parsed query of `GET /pets`. */
export type ListQuery = { readonly limit: number; readonly status?: PetStatus }

/**
 * Reads `limit` and `status`; other parameters are ignored. A parameter given twice is refused,
 * since which one would count is ambiguous.
 */
export function parseListQuery(query: URLSearchParams): Result<ListQuery, ApiError> {
  const limits = query.getAll('limit')
  const statuses = query.getAll('status')
  if (limits.length > 1) return fail(invalidParameter("Query parameter 'limit' must be given at most once."))
  if (statuses.length > 1) return fail(invalidParameter("Query parameter 'status' must be given at most once."))
  let limit: number = LIMIT.default
  const limitText = limits[0]
  if (limitText !== undefined) {
    const value = parseWholeNumber(limitText, LIMIT.min, LIMIT.max)
    if (value === undefined) {
      return fail(
        invalidParameter(`Query parameter 'limit' must be an integer from ${LIMIT.min} to ${LIMIT.max}.`),
      )
    }
    limit = value
  }
  const status = statuses[0]
  if (status === undefined) return ok({ limit })
  if (!isPetStatus(status)) {
    return fail(STATUS_FILTER_REFUSED)
  }
  return ok({ limit, status })
}

/**
 * Reads the `petId` path segment: a decimal int64, exact past 2^53.
 * @example parsePetId('42') // { ok: true, value: 42 }
 */
export function parsePetId(segment: string): Result<Int64, ApiError> {
  const id = parseInt64Text(segment)
  return id === undefined
    ? fail(invalidParameter("Path parameter 'petId' must be a 64-bit integer."))
    : ok(id)
}

/**
 * Checks a parsed JSON body against NewPet and reports every bad field. Fields the spec does not
 * name (an `id` included) are ignored: the service assigns ids.
 */
export function parseNewPet(body: unknown): Result<NewPet, ApiError> {
  return parseRecord(body, false)
}

/**
 * Checks a stored animal (a fixture or snapshot record) against Pet: NewPet plus an int64 `id`.
 * @example parsePet({ id: 1, name: 'Rex', categoryId: 2 }).ok // true
 */
export function parsePet(record: unknown): Result<Pet, ApiError> {
  return parseRecord(record, true)
}

function parseRecord(body: unknown, withId: true): Result<Pet, ApiError>
function parseRecord(body: unknown, withId: false): Result<NewPet, ApiError>
function parseRecord(body: unknown, withId: boolean): Result<NewPet | Pet, ApiError> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail(invalidBody(`The ${withId ? 'record' : 'request body'} must be a JSON object with name and categoryId.`))
  }
  const fields = body as Readonly<Record<string, unknown>>
  const field = (key: string): unknown => (Object.hasOwn(fields, key) ? fields[key] : undefined)
  const problems: string[] = []
  const id = readInt64(field('id'))
  if (withId && field('id') === undefined) problems.push("field 'id' is required")
  else if (withId && id === undefined) problems.push("field 'id' must be a 64-bit integer")

  const name = field('name')
  if (name === undefined) problems.push("field 'name' is required")
  else if (typeof name !== 'string') problems.push("field 'name' must be a string")
  else if (name.length > MAX_NAME_LENGTH) problems.push(`field 'name' must be at most ${MAX_NAME_LENGTH} characters`)

  const categoryId = readInt64(field('categoryId'))
  if (field('categoryId') === undefined) problems.push("field 'categoryId' is required")
  else if (categoryId === undefined) problems.push("field 'categoryId' must be a 64-bit integer")

  const status = field('status')
  if (Object.hasOwn(fields, 'status') && !isPetStatus(status)) {
    problems.push(`field 'status' must be one of ${PET_STATUSES.join(', ')}`)
  }
  if (problems.length > 0 || typeof name !== 'string' || categoryId === undefined) {
    return fail(invalidBody(`${capitalise(problems.join('; '))}.`))
  }
  const newPet: NewPet = isPetStatus(status) ? { name, categoryId, status } : { name, categoryId }
  return ok(withId && id !== undefined ? { id, ...newPet } : newPet)
}

/** A JSON integer as the body parser left it: a safe `number` or an exact `bigint`. */
function readInt64(value: unknown): Int64 | undefined {
  if (typeof value === 'bigint') return toInt64(value)
  return Number.isSafeInteger(value) ? toInt64(value as number) : undefined
}

/**
 * The JSON text of a pet, fields in the spec's order; int64 values are written exactly.
 * @example toPetJson({ id: 1, name: 'Rex', categoryId: 2 }) // '{"id":1,"name":"Rex","categoryId":2}'
 */
export function toPetJson(pet: Pet): string {
  const { id, name, categoryId, status } = pet
  // join() builds one flat string of exactly the right size. A template builds a rope, and
  // JSON.stringify leaves slack: in a store of a million animals either costs twice the memory.
  const statusText = status === undefined ? '' : `,"status":"${status}"`
  return ['{"id":', String(id), ',"name":', JSON.stringify(name), ',"categoryId":', String(categoryId), statusText, '}'].join('')
}

function invalidParameter(message: string): ApiError {
  return apiError('invalid_parameter', message)
}

function invalidBody(message: string): ApiError {
  return apiError('invalid_body', message)
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The 400 for a `status` filter outside PetStatus, on the API's list and the control API's pages alike. */
export const STATUS_FILTER_REFUSED: ApiError = invalidParameter(`Query parameter 'status' must be one of ${PET_STATUSES.join(', ')}.`)
