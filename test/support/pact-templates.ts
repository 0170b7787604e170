import { MatchersV3 } from '@pact-foundation/pact'
import { API_KEY_PLACEHOLDER } from '../../src/verify/options.js'

const { equal, integer, regex, string } = MatchersV3

// Only what the spec promises is pinned: no Location (the spec names none), and nothing of how
// getPet's deprecation is signalled (spec 9.2 gives the removal date, not the headers that carry it).

/** RFC 6750's token68: what any bearer key looks like, so the verifier may send the real one. */
const BEARER = '^Bearer [A-Za-z0-9\\-._~+/]+=*$'

/** `Authorization` with the placeholder key, which the verifier swaps for the provider's key. */
export const VALID_KEY_HEADERS = { Authorization: regex(BEARER, `Bearer ${API_KEY_PLACEHOLDER}`) }

/** A key no provider accepts; the verifier sends it as it is. */
export const INVALID_KEY = 'not-a-valid-key'

/** `Authorization` with a key the provider must refuse. */
export const INVALID_KEY_HEADERS = { Authorization: regex(BEARER, `Bearer ${INVALID_KEY}`) }

/**
 * A Pet as the spec pins it: `id`, `name` and `categoryId` by type. `status` is optional in a Pet,
 * so it is left out unless asked for, and then pinned by value.
 */
export function petLike(example: { id: number; name: string; categoryId: number; status?: string }): Record<string, unknown> {
  const pet = { id: integer(example.id), name: string(example.name), categoryId: integer(example.categoryId) }
  return example.status === undefined ? pet : { ...pet, status: equal(example.status) }
}

/** The Error body: `code` and `message` by type (their text is open), `status` by value (it repeats the HTTP status). */
export function errorLike(status: number, example: { code: string; message: string }): Record<string, unknown> {
  return { code: string(example.code), message: string(example.message), status: equal(status) }
}
