import { type BudgetLimits, budgetFull } from '../service/budget.js'
import { type ApiError, apiError } from '../service/errors.js'
import type { Refusal, StoreUnavailable } from '../store/port.js'

/** What the fake answers when a store takes no animal in: 507 saying which limit, in true numbers. */
export function refusalError(refusal: Refusal, limits: BudgetLimits): ApiError {
  switch (refusal.kind) {
    case 'no_room':
      return budgetFull(limits, refusal.held, refusal.adding)
    case 'no_ids':
      return apiError('store_full', 'No 64-bit ids are left to assign.')
    case 'not_durable':
      return apiError(
        'store_full',
        refusal.adding === 1
          ? 'The id could not be reserved on disk (see the server log), so the animal was not stored.'
          : `The ids of ${refusal.adding} new animals could not be reserved on disk (see the server log), so none was stored.`,
      )
  }
}

/** The 503 of a request its store could not serve now: try again. */
export function storeUnavailable(error: StoreUnavailable): ApiError {
  return apiError('store_unavailable', `${error.message} Try again: a creation that got this answer may or may not have been stored.`, { 'retry-after': '1' })
}
