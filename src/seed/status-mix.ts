import { fail, ok, type Result } from '../service/http.js'
import { isWholeNumber } from '../service/whole-number.js'
import { type NewPet, PET_STATUSES, type PetStatus } from '../spec/animals-service.js'

/** Options of a seed: the generator's seed (random when absent) and status weights. */
export type SeedOptions = {
  readonly seed?: number
  readonly statusMix?: StatusMix
}

/**
 * Makes a source of realistic new animals for a seed; the public `createFake` loads Faker only when
 * first asked.
 */
export type AnimalGenerator = (options: { readonly seed: number } & SeedOptions) => Promise<() => NewPet>

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

