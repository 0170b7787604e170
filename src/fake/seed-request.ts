import { type ApiError, apiError } from '../service/errors.js'
import type { SeedOptions } from './assemble-fake.js'
import { fail, ok, type Result } from '../service/http.js'
import { isWholeNumber } from '../service/whole-number.js'
import { PET_STATUSES, type PetStatus } from '../spec/animals-service.js'

/** The body of `POST /__control/seed`. */
export type SeedRequest = SeedOptions & { readonly count: number }

/** The most animals one seed request adds. */
export const MAX_SEED_COUNT = 1_000_000

/** The weights a status mix has: one per status, and `none` for animals without one. */
export const STATUS_MIX_KEYS = [...PET_STATUSES, 'none'] as const

/** Relative weights of each status; `none` is an animal created without a status. */
export type StatusMix = Readonly<Record<PetStatus | 'none', number>>

/**
 * Most animals are for sale; a few were created without a status, which the spec allows. A status
 * the spec adds gets `UNLISTED_STATUS_WEIGHT` until it is given a weight here.
 */
const STATUS_WEIGHTS: Readonly<Partial<StatusMix>> = { available: 60, pending: 15, sold: 20, none: 5 }

/** The weight of a status that `STATUS_WEIGHTS` does not list: as rare as an animal without one. */
export const UNLISTED_STATUS_WEIGHT = 5

/** The weights a seed uses unless told: each of STATUS_MIX_KEYS's, in their order. */
export const DEFAULT_STATUS_MIX: StatusMix = Object.fromEntries(STATUS_MIX_KEYS.map((key) => [key, STATUS_WEIGHTS[key] ?? UNLISTED_STATUS_WEIGHT])) as Record<keyof StatusMix, number>

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

/**
 * Reads relative weights of each status, e.g. `{ sold: 3, available: 1 }`; absent weights are 0,
 * at least one must be above 0. The error says what is wrong, for a 400 or a CLI line.
 */
export function parseStatusMix(value: unknown): Result<NonNullable<SeedOptions['statusMix']>, string> {
  const expected = `it maps ${STATUS_MIX_KEYS.join(', ')} to whole-number weights up to 1000000, one above 0`
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(expected)
  const weights = value as Readonly<Record<string, unknown>>
  const unknown = Object.keys(weights).find((key) => !(STATUS_MIX_KEYS as readonly string[]).includes(key))
  if (unknown !== undefined) return fail(`"${unknown}" is not one of ${STATUS_MIX_KEYS.join(', ')}`)
  const mix = {} as Record<(typeof STATUS_MIX_KEYS)[number], number> // each key set below
  for (const key of STATUS_MIX_KEYS) {
    const weight = weights[key] ?? 0
    if (!isWholeNumber(weight, 0, 1_000_000)) return fail(`the weight of ${key} must be a whole number from 0 to 1000000`)
    mix[key] = weight
  }
  return STATUS_MIX_KEYS.some((key) => mix[key] > 0) ? ok(mix) : fail('at least one weight must be above 0')
}

function invalid(message: string): ApiError {
  return apiError('invalid_body', message)
}
