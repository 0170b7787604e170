import { type ApiError, apiError } from './errors.js'
import { fail, ok, type Result } from './http.js'

/** Which bearer tokens the fake accepts: a fixed set, or any non-empty token when none is configured. */
export type KeyPolicy = { readonly kind: 'any' } | { readonly kind: 'listed'; readonly keys: readonly string[] }

/** Builds the policy from configured keys; no keys means any non-empty token is accepted. */
export function createKeyPolicy(keys: readonly string[]): KeyPolicy {
  const listed = keys.filter((key) => key.length > 0)
  return listed.length === 0 ? { kind: 'any' } : { kind: 'listed', keys: listed }
}

// The bearer token grammar of RFC 6750: token68.
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/

/** Whether `text` can be sent as `Authorization: Bearer <text>`: RFC 6750's token68. */
export function isToken68(text: string): boolean {
  return TOKEN68.test(text)
}

/**
 * Checks `Authorization: Bearer <key>` (scheme case-insensitive) and returns the token. The
 * messages never repeat the token.
 */
export function authenticate(authorization: string | undefined, policy: KeyPolicy): Result<string, ApiError> {
  if (authorization === undefined || authorization.trim() === '') {
    return fail(unauthorized('Missing credential: send Authorization: Bearer <API key>.', 'Bearer'))
  }
  const text = authorization.trim()
  const space = text.indexOf(' ')
  const scheme = space === -1 ? text : text.slice(0, space)
  if (scheme.toLowerCase() !== 'bearer') {
    return fail(unauthorized('The Authorization scheme must be Bearer.', 'Bearer'))
  }
  const token = space === -1 ? '' : text.slice(space + 1).trim()
  if (token === '') return fail(unauthorized('The bearer token is empty.', INVALID_TOKEN))
  if (!isToken68(token) || !isAccepted(token, policy)) {
    return fail(unauthorized('The API key is not valid.', INVALID_TOKEN))
  }
  return ok(token)
}

const INVALID_TOKEN = 'Bearer error="invalid_token"'

function unauthorized(message: string, challenge: string): ApiError {
  return apiError('unauthorized', message, { 'www-authenticate': challenge })
}

function isAccepted(token: string, policy: KeyPolicy): boolean {
  if (policy.kind === 'any') return true
  let accepted = false
  // Compare against every key, never stopping early, so timing tells nothing about which matched.
  for (const key of policy.keys) accepted = constantTimeEqual(token, key) || accepted
  return accepted
}

/**
 * Compares two strings in time that depends on their lengths only, not on where they differ.
 * `node:crypto` is not available to the core, which also runs in browsers.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length)
  let difference = a.length ^ b.length
  for (let i = 0; i < length; i++) {
    difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  }
  return difference === 0
}
