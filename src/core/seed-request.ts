import { type ApiError, apiError } from './errors.js'
import type { SeedOptions } from './fake-service.js'
import { fail, ok, type Result } from './http.js'

/** The body of `POST /__control/seed`. */
export type SeedRequest = SeedOptions & { readonly count: number }

/** The most animals one seed request adds. */
export const MAX_SEED_COUNT = 1_000_000

const MIX_KEYS = ['available', 'pending', 'sold', 'none'] as const

/**
 * Reads `{"count": n, "seed"?: n, "statusMix"?: {"available": w, "pending": w, "sold": w, "none": w}}`.
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
  if (!isWhole(count, 1, MAX_SEED_COUNT)) return fail(invalid(`Field 'count' must be a whole number from 1 to ${MAX_SEED_COUNT}.`))
  if (seed !== undefined && !isWhole(seed, 0, 2 ** 32 - 1)) return fail(invalid("Field 'seed' must be a whole number from 0 to 4294967295."))
  if (statusMix === undefined) return ok(seed === undefined ? { count } : { count, seed })
  const mix = parseMix(statusMix)
  if (mix === undefined) {
    return fail(invalid("Field 'statusMix' must map available, pending, sold and none to whole-number weights, one above 0."))
  }
  return ok(seed === undefined ? { count, statusMix: mix } : { count, seed, statusMix: mix })
}

function parseMix(value: unknown): SeedOptions['statusMix'] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const weights = value as Readonly<Record<string, unknown>>
  if (Object.keys(weights).some((key) => !(MIX_KEYS as readonly string[]).includes(key))) return undefined
  const mix = { available: 0, pending: 0, sold: 0, none: 0 }
  for (const key of MIX_KEYS) {
    const weight = weights[key] ?? 0
    if (!isWhole(weight, 0, 1_000_000)) return undefined
    mix[key] = weight
  }
  return MIX_KEYS.some((key) => mix[key] > 0) ? mix : undefined
}

function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
}

function invalid(message: string): ApiError {
  return apiError('invalid_body', message)
}
