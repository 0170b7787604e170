import { type ApiError, apiError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { isWholeNumber } from '../service/whole-number.js'
import { parseStatusMix, type SeedOptions } from '../seed/status-mix.js'

/** The body of `POST /__control/seed`. */
export type SeedRequest = SeedOptions & { readonly count: number }

/** The most animals one seed request adds. */
export const MAX_SEED_COUNT = 1_000_000

/**
 * Reads `{"count": n, "seed"?: n, "statusMix"?: {<a status>: w, ..., "none": w}}` (the keys of STATUS_MIX_KEYS).
 * @example parseSeedRequest({ count: 10, seed: 7 }) // { ok: true, value: { count: 10, seed: 7 } }
 */
export function parseSeedRequest(input: unknown): Result<SeedRequest, ApiError> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail(invalid('The seed request must be a JSON object such as {"count": 100}.'))
  }
  const { count, seed, statusMix, ...rest } = input as Readonly<Record<string, unknown>>
  if (Object.keys(rest).length > 0) {
    return fail(invalid(`Unknown field(s) ${Object.keys(rest).map((k) => `'${k}'`).join(', ')}.`))
  }
  if (!isWholeNumber(count, 1, MAX_SEED_COUNT)) return fail(invalid(`Field 'count' must be a whole number from 1 to ${MAX_SEED_COUNT}.`))
  if (seed !== undefined && !isWholeNumber(seed, 0, 2 ** 32 - 1)) return fail(invalid("Field 'seed' must be a whole number from 0 to 4294967295."))
  if (statusMix === undefined) return ok(seed === undefined ? { count } : { count, seed })
  const mix = parseStatusMix(statusMix)
  if (!mix.ok) return fail(invalid(`Field 'statusMix': ${mix.error}`))
  return ok(seed === undefined ? { count, statusMix: mix.value } : { count, seed, statusMix: mix.value })
}

function invalid(message: string): ApiError {
  return apiError('invalid_body', message)
}
