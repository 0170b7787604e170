import { type ApiError, apiError, FakeInputError, orThrow } from '../service/errors.js'
import { fail, ok, type PlainRequest, type Result } from '../service/http.js'
import { isJsonContentType, parseJsonBody } from '../service/json-body.js'
import { parseInt64Text } from '../service/int64.js'
import { STATUS_FILTER_REFUSED } from '../service/pets.js'
import { definedOnly } from '../service/defined-only.js'
import { parseWholeNumber } from '../service/whole-number.js'
import { isPetStatus } from '../spec/animals-service.js'
import type { PageQuery } from './control-reads.js'
import type { JournalFilter } from './journal-reader.js'

/** What a control request's body may hold at most: a rule or a setting is a few hundred bytes. */
export const CONTROL_BODY_LIMITS = { rule: 16 * 1024, small: 1024 } as const

/** The JSON body of a control request; a `FakeInputError` (400) for a missing, unreadable or oversize one. */
export function readJson(request: PlainRequest, expected: string): unknown {
  return orThrow(parseJsonBody(request, { limit: CONTROL_BODY_LIMITS.rule, expected }))
}

/** The body's bytes, checked as a JSON body is (present, a JSON content type) but not decoded or parsed. */
export function readJsonBytes(request: PlainRequest, expected: string): Uint8Array {
  const { body } = request
  if (body === undefined || body.byteLength === 0) throw new FakeInputError(apiError('missing_body', `A request body is required: ${expected}.`))
  if (!isJsonContentType(request.headers['content-type'] ?? '')) {
    throw new FakeInputError(apiError('unsupported_content_type', 'The body must be sent with Content-Type: application/json (UTF-8).'))
  }
  return body
}

/** A journal page's entries when no `limit` is given, and the most one may ask for (a store's journal holds 1,000). */
export const JOURNAL_PAGE = { default: 100, max: 1000 } as const

const JOURNAL_NUMBERS = { status: [100, 599], since: [0, Number.MAX_SAFE_INTEGER], limit: [1, JOURNAL_PAGE.max] } as const

/** The journal filter of a request's query; a `FakeInputError` (400) for an unknown or bad parameter. */
export function readJournalFilter(request: PlainRequest): JournalFilter {
  return orThrow(parseJournalFilter(new URLSearchParams(request.search)))
}

function parseJournalFilter(query: URLSearchParams): Result<JournalFilter, ApiError> {
  const filter: Record<string, string | number> = {}
  for (const [name, value] of query) {
    if (name === 'store') continue // chose the scope already
    if (name === 'method' || name === 'path' || name === 'tenant') filter[name] = value
    else if (name === 'status' || name === 'since' || name === 'limit') {
      const number = readWhole(name, value, JOURNAL_NUMBERS[name])
      if (!number.ok) return number
      filter[name] = number.value
    } else {
      return fail(apiError('invalid_parameter', `Unknown query parameter '${name}': use method, path, status, tenant, since or limit.`))
    }
  }
  return ok({ limit: JOURNAL_PAGE.default, ...filter } as JournalFilter)
}

/** The page of animals a request's query asks for; a `FakeInputError` (400) for a bad one. */
export function readPageQuery(request: PlainRequest): PageQuery {
  return orThrow(parsePageQuery(new URLSearchParams(request.search)))
}

/** The longest text a search by name takes. */
const MAX_NAME_QUERY = 100

function parsePageQuery(query: URLSearchParams): Result<PageQuery, ApiError> {
  const offset = readWhole('offset', query.get('offset') ?? '0', [0, Number.MAX_SAFE_INTEGER])
  if (!offset.ok) return offset
  const limit = readWhole('limit', query.get('limit') ?? '20', [1, 1000])
  if (!limit.ok) return limit
  const status = query.get('status')
  if (status !== null && !isPetStatus(status)) return fail(STATUS_FILTER_REFUSED)
  const [fromText, name] = [query.get('from'), query.get('name')]
  if (fromText !== null && name !== null) return fail(apiError('invalid_parameter', "Give 'from' or 'name', not both."))
  const from = fromText === null ? undefined : parseInt64Text(fromText)
  if (from === undefined && fromText !== null) return fail(apiError('invalid_parameter', "Parameter 'from' must be an animal id, a whole number."))
  if (name !== null && (name === '' || name.length > MAX_NAME_QUERY)) {
    return fail(apiError('invalid_parameter', `Parameter 'name' must be 1 to ${MAX_NAME_QUERY} characters.`))
  }
  return ok({ offset: offset.value, limit: limit.value, ...definedOnly({ status: status ?? undefined, from, name: name ?? undefined }) })
}

function readWhole(name: string, text: string, [min, max]: readonly [number, number]): Result<number, ApiError> {
  const number = parseWholeNumber(text, min, max)
  if (number !== undefined) return ok(number)
  return fail(apiError('invalid_parameter', `Query parameter '${name}' must be a whole number from ${min} to ${max}.`))
}

