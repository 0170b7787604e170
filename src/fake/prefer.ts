import { type ApiError, apiError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { OPERATIONS, type OperationId } from '../spec/animals-service.js'

/**
 * What a `Prefer` header asks of one request, in Prism's syntax (`Prefer: code=404`): nothing, the
 * operation's own success status (answered normally, or refused when the normal answer is not it),
 * or an error status from 400 to 599 (answered with the Error body, the operation not run).
 * Other preferences (`example=...`, `dynamic=true`, RFC 7240's `return=minimal`) are ignored.
 */
export type PreferredAnswer = { readonly kind: 'success'; readonly status: number } | { readonly kind: 'error'; readonly status: number }

/**
 * Reads `Prefer` for `operation`; `undefined` when it names no code. A repeated header arrives
 * joined with commas, so `code=404` then `code=500` is two codes: refused, not guessed.
 * @example preferredAnswer('code=404', 'getPet') // { ok: true, value: { kind: 'error', status: 404 } }
 */
export function preferredAnswer(header: string | undefined, operation: OperationId): Result<PreferredAnswer, ApiError> | undefined {
  if (header === undefined) return undefined
  const codes = new Set<string>()
  for (const preference of header.split(/[,;]/)) {
    const [name, ...rest] = preference.split('=') as [string, ...string[]]
    if (name.trim().toLowerCase() !== 'code') continue
    codes.add(rest.join('=').trim().replace(/^"(.*)"$/, '$1'))
  }
  if (codes.size === 0) return undefined
  const [code = ''] = codes
  const { success } = OPERATIONS[operation]
  const usage = `use ${success}, or an error status from 400 to 599`
  if (codes.size > 1) return fail(invalid(`Prefer names more than one code (${[...codes].join(', ')}): ${usage}.`))
  const status = /^[0-9]{3}$/.test(code) ? Number(code) : Number.NaN
  if (status === success) return ok({ kind: 'success', status })
  if (status >= 400 && status <= 599) return ok({ kind: 'error', status })
  return fail(invalid(`Prefer: code=${code.slice(0, 20)} is not an answer of ${operation}: ${usage}.`))
}

/** The refusal of a preferred success the request cannot have, e.g. a 200 for an unknown animal. */
export function unsatisfiable(status: number, actual: number, reason: string): ApiError {
  return invalid(`Prefer: code=${status} cannot be given: this request is answered ${actual} (${reason}); the fake does not invent a ${status}.`)
}

function invalid(message: string): ApiError {
  return apiError('invalid_parameter', message)
}
