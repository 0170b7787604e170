import { type ApiError, apiError } from './errors.js'

/**
 * What all the stores of one fake may hold together, so that no request (and no number of
 * isolated stores) can grow the process without bound: animals, the characters of their JSON
 * texts, and the characters of cached list answers. Stores take room before they add and give
 * it back when they let go.
 */
export type Budget = {
  readonly limits: BudgetLimits
  /** Animals held by every store, and the characters of their texts and of cached lists. */
  readonly used: { readonly animals: number; readonly chars: number; readonly cacheChars: number }
  /** Takes room for animals and their text; false, taking nothing, when that would pass a limit. */
  take(animals: number, chars: number): boolean
  give(animals: number, chars: number): void
  /** Takes room for a cached answer; false when the cache budget is spent (the answer is then not kept). */
  takeCache(chars: number): boolean
  giveCache(chars: number): void
}

/** The limits of a budget. */
export type BudgetLimits = {
  /** Every animal of every store (`--max-animals`). */
  readonly maxAnimals: number
  /** Characters of the animals' JSON texts made by requests, seeds and snapshots (fixture texts are shared, counted once). */
  readonly maxTextChars: number
  /** Characters of list answers kept for reuse, across every store. */
  readonly maxCacheChars: number
}

/**
 * The default limits: 2,000,000 animals (about 250 MB), 256 Mi characters of animal text (at most
 * 512 MiB), 32 Mi characters of cached lists.
 */
export const DEFAULT_BUDGET_LIMITS: BudgetLimits = { maxAnimals: 2_000_000, maxTextChars: 256 * 1024 * 1024, maxCacheChars: 32 * 1024 * 1024 }

/** Creates a budget; each limit not given is the default's (`DEFAULT_BUDGET_LIMITS`). */
export function createBudget(limits: Partial<BudgetLimits> = {}): Budget {
  const all = { ...DEFAULT_BUDGET_LIMITS, ...limits }
  const used = { animals: 0, chars: 0, cacheChars: 0 }
  return {
    limits: all,
    used,
    take(animals, chars) {
      if (used.animals + animals > all.maxAnimals || used.chars + chars > all.maxTextChars) return false
      used.animals += animals
      used.chars += chars
      return true
    },
    give(animals, chars) {
      used.animals -= animals
      used.chars -= chars
    },
    takeCache(chars) {
      if (used.cacheChars + chars > all.maxCacheChars) return false
      used.cacheChars += chars
      return true
    },
    giveCache(chars) {
      used.cacheChars -= chars
    },
  }
}

/**
 * The 507 of `adding` more animals that do not fit (none or fewer: a replacement with more text),
 * saying what is full in true numbers: what every store together holds (`held`) against `limits`.
 */
export function budgetFull(limits: BudgetLimits, held: { readonly animals: number; readonly chars: number }, adding: number): ApiError {
  const why =
    held.animals + adding > limits.maxAnimals
      ? `it holds ${held.animals} of at most ${limits.maxAnimals} animals (--max-animals, every store together)`
      : `the animals' text would pass ${limits.maxTextChars} characters (${held.chars} used, every store together)`
  // A replacement of as many animals or fewer can still hold more text than there is room for.
  const what = adding > 0 ? `${adding} more animal${adding === 1 ? '' : 's'}` : 'these animals'
  return apiError('store_full', `The fake has no room for ${what}: ${why}.`)
}
