import { type Fields, JSON_HEADERS, type PlainResponse, type Result } from './http.js'

/**
 * Every error the fake can answer, by its stable `code`. The spec lists 400, 401 and 404 and leaves
 * the codes open; the others are the fake's documented extras (README, "Error codes").
 */
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_parameter: 400,
  invalid_body: 400,
  store_not_named: 400,
  malformed_json: 400,
  missing_body: 400,
  unsupported_content_type: 400,
  unauthorized: 401,
  host_not_allowed: 403,
  origin_not_allowed: 403,
  json_required: 403,
  operator_only: 403,
  pet_not_found: 404,
  route_not_found: 404,
  rule_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  pact_file_unusable: 409,
  payload_too_large: 413,
  headers_too_large: 431,
  internal_error: 500,
  bad_gateway: 502,
  server_busy: 503,
  store_unavailable: 503,
  gateway_timeout: 504,
  store_full: 507,
  rules_full: 507,
} as const satisfies Record<string, number>

/** A stable machine-readable error code, the `code` of the Error body. */
export type ErrorCode = keyof typeof ERROR_STATUS

/** An expected failure: a value, never thrown. */
export type ApiError = {
  readonly code: ErrorCode
  readonly message: string
  /** Extra response headers, e.g. `Allow` on 405 or `WWW-Authenticate` on 401. */
  readonly headers?: Fields
}

/** Builds an `ApiError`. */
export function apiError(code: ErrorCode, message: string, headers?: Fields): ApiError {
  return headers === undefined ? { code, message } : { code, message, headers }
}

/**
 * The spec's Error body `{code, message, status}` with `status` equal to the HTTP status.
 * @example toErrorResponse(apiError('pet_not_found', 'No animal has id 7.')).status // 404
 */
export function toErrorResponse(error: ApiError): PlainResponse {
  const status = ERROR_STATUS[error.code]
  const headers = error.headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...error.headers }
  return { status, headers, body: errorBody(error.code, error.message, status) }
}

/** The Error body text for any status, including forced responses with codes chosen by a test. */
export function errorBody(code: string, message: string, status: number): string {
  return JSON.stringify({ code, message, status })
}

/**
 * A control call refused for a reason of its own, not a bug (bad input, no room, a file in the
 * way), thrown in code; the control API answers it with its Error body.
 */
export class FakeInputError extends Error {
  override readonly name = 'FakeInputError'
  readonly apiError: ApiError
  readonly code: ErrorCode
  readonly status: number

  constructor(error: ApiError) {
    super(error.message)
    this.apiError = error
    this.code = error.code
    this.status = ERROR_STATUS[error.code]
  }
}

/** Whether an error is a `FakeInputError`: bad input to a control, not a bug. */
export function isFakeInputError(error: unknown): error is FakeInputError {
  return error instanceof FakeInputError
}

/** The value of a result, or a thrown `FakeInputError`: for the in-code controls. */
export function orThrow<T>(result: Result<T, ApiError>): T {
  if (!result.ok) throw new FakeInputError(result.error)
  return result.value
}

/** The answer to a bug in the fake, which every transport sends when the fake throws. */
export const INTERNAL_ERROR: PlainResponse = toErrorResponse(apiError('internal_error', 'The fake failed unexpectedly; this is a bug.'))
