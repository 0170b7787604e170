import { type ApiError, apiError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { type ClaimRefusal, type Maybe, type TenantsPort, andThen } from '../store/port.js'
import { SHARED_STORE } from '../store/scope.js'
import type { BudgetLimits } from '../service/budget.js'

/** Stores of keys: at most 1,000 at once, each dropped after 30 minutes without a request. */
export const TENANT_LIMITS = { maxTenants: 1000, idleMs: 30 * 60 * 1000 } as const

/** Options of `createTenancy`. */
export type TenancyOptions = {
  readonly tenants: TenantsPort
  /** Each bearer key gets its own store, made from the fixture on its first request. */
  readonly isolate: boolean
  /** The most stores of keys at once; a new key past it is refused with 507 (after idle stores are dropped). */
  readonly maxStores?: number
  /** A store of a key unused this long is dropped, so that old keys cannot hold every slot. */
  readonly idleMs?: number
  readonly limits: BudgetLimits
  readonly now: () => number
}

/** Which store an accepted key works on. */
export type Tenancy = {
  readonly isolated: boolean
  /** The label of a key's store: the one shared store, or under isolation its own, made on first use. */
  storeFor(token: string): Maybe<Result<string, ApiError>>
}

/**
 * The policy of stores per key, over any backend's stores: without isolation every key works on
 * the shared store; under it, each key on its own, made from the fixture on its first request. At
 * most once a minute (or once per idle time, when shorter), the request that finds it due first
 * drops the stores unused for the idle time; past the most stores a new key is refused.
 */
export function createTenancy(options: TenancyOptions): Tenancy {
  const { tenants, now } = options
  if (!options.isolate) {
    const shared = ok(SHARED_STORE)
    return { isolated: false, storeFor: () => shared }
  }
  const maxStores = options.maxStores ?? TENANT_LIMITS.maxTenants
  const idleMs = options.idleMs ?? TENANT_LIMITS.idleMs
  let nextSweep = 0
  const refused = (refusal: ClaimRefusal): ApiError => {
    if (refusal.kind === 'no_store') return apiError('store_full', `The fake holds its maximum of ${maxStores} isolated stores; stores unused for ${idleMs / 60_000} minutes are dropped, or reset it.`)
    return apiError('store_full', `No room for another store of ${refusal.adding} animals: every store together holds ${refusal.held.animals} of at most ${options.limits.maxAnimals}.`)
  }
  const claim = (token: string, at: number): Maybe<Result<string, ApiError>> =>
    andThen(tenants.claim(token, at, maxStores), (claimed) => (claimed.ok ? claimed : fail(refused(claimed.error))))
  return {
    isolated: true,
    storeFor(token) {
      const at = now()
      if (at < nextSweep) return claim(token, at)
      // A sweep costs a walk over the stores: at most once a minute, or when a slot is wanted.
      nextSweep = at + Math.min(idleMs, 60_000)
      return andThen(tenants.dropIdle(at - idleMs), () => claim(token, at))
    },
  }
}
