import type { Budget } from '../service/budget.js'
import { type ApiError, apiError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { type AnimalSet, createStore, type IdReservation, prepareAnimals, type Store } from '../service/store.js'
import type { Pet } from '../spec/animals-service.js'
import { definedOnly } from '../service/defined-only.js'

/** One store and the name the journal and dashboard show for it (never the key). */
export type Tenant = { readonly label: string; readonly store: Store }

/** Options of `createTenants`. */
export type TenantsOptions = {
  /** The animals every store starts from. */
  readonly fixture: readonly Pet[]
  /** Each bearer key gets its own store, created from the fixture on first use. */
  readonly isolate: boolean
  /** The room every store shares: one budget for them all. */
  readonly budget: Budget
  /** The most isolated stores; a new key past it is refused with 507 (after idle stores are dropped). */
  readonly maxTenants?: number
  /** An isolated store unused this long is dropped, so that old keys cannot hold every slot. */
  readonly idleMs?: number
  readonly now: () => number
  /** Ids the shared store must never hand out again (with a state file); not for isolated stores. */
  readonly ids?: IdReservation
}

/** The stores of a fake: one shared store, or one per key under isolation. */
export type Tenants = {
  readonly isolated: boolean
  /** The store every key uses without isolation. */
  readonly shared: Tenant
  /** The store of an accepted key, created on first use under isolation. */
  forToken(token: string): Result<Tenant, ApiError>
  /** Every store in use: the shared one, or the isolated ones. */
  all(): Tenant[]
  /** A store in use by its label. */
  byLabel(label: string): Tenant | undefined
  /** Every store back to the fixture; isolated stores are dropped and made again on next use. */
  reset(fixture?: readonly Pet[]): void
  /** One key's store back to the fixture (the shared store without isolation). */
  resetToken(token: string): void
}

/** Isolated stores: at most 1,000, each dropped after 30 minutes without a request. */
export const TENANT_LIMITS = { maxTenants: 1000, idleMs: 30 * 60 * 1000 } as const

type Slot = { readonly tenant: Tenant; lastUsed: number }

/**
 * Creates the stores. Isolated stores are keyed by token in memory only; outside this module they
 * are known by their label.
 */
export function createTenants(options: TenantsOptions): Tenants {
  const { budget, now } = options
  // The shared store's label in the journal and the control API.
  const sharedLabel = 'shared'
  const maxTenants = options.maxTenants ?? TENANT_LIMITS.maxTenants
  const idleMs = options.idleMs ?? TENANT_LIMITS.idleMs
  // Serialised once: every store made from the fixture shares its JSON texts.
  let fixture: AnimalSet = prepareAnimals(options.fixture)
  const newStore = (): Store => createStore({ initial: fixture, budget })
  const newShared = (): Store => createStore({ initial: fixture, budget, ...definedOnly({ ids: options.ids }) })
  let shared: Tenant = { label: sharedLabel, store: options.isolate ? createStore({ initial: fixture }) : newShared() }
  // Every request asks for its store: without isolation the answer is always this one, made once.
  let sharedResult = ok(shared)
  const byToken = new Map<string, Slot>()
  let created = 0
  let nextSweep = 0

  function dropIdle(at: number): void {
    for (const [token, slot] of byToken) {
      if (at - slot.lastUsed >= idleMs) {
        slot.tenant.store.release()
        byToken.delete(token)
      }
    }
  }

  function dropAll(): void {
    for (const slot of byToken.values()) slot.tenant.store.release()
    byToken.clear()
  }

  return {
    isolated: options.isolate,
    get shared() {
      return shared
    },
    forToken(token) {
      if (!options.isolate) return sharedResult
      const at = now()
      // A sweep costs a walk over the stores: at most once a minute, or when a slot is wanted.
      if (at >= nextSweep) {
        dropIdle(at)
        nextSweep = at + Math.min(idleMs, 60_000)
      }
      const known = byToken.get(token)
      if (known !== undefined) {
        known.lastUsed = at
        return ok(known.tenant)
      }
      if (byToken.size >= maxTenants) {
        return fail(apiError('store_full', `The fake holds its maximum of ${maxTenants} isolated stores; stores unused for ${idleMs / 60_000} minutes are dropped, or reset it.`))
      }
      let store: Store
      try {
        store = newStore()
      } catch {
        return fail(apiError('store_full', `No room for another store of ${fixture.ids.length} animals: every store together holds ${budget.used.animals} of at most ${budget.limits.maxAnimals}.`))
      }
      created += 1
      const tenant = { label: `tenant-${created}`, store }
      byToken.set(token, { tenant, lastUsed: at })
      return ok(tenant)
    },
    all: () => (options.isolate ? [...byToken.values()].map((slot) => slot.tenant) : [shared]),
    byLabel: (label) => (options.isolate ? [...byToken.values()].map((slot) => slot.tenant) : [shared]).find((tenant) => tenant.label === label),
    reset(next) {
      const previous = fixture
      if (next !== undefined) fixture = prepareAnimals(next)
      if (options.isolate) {
        dropAll()
        return
      }
      shared.store.release()
      let store: Store
      try {
        store = newShared()
      } catch (error) {
        // The new fixture does not fit the budget: back to the previous one, which did.
        fixture = previous
        store = newShared()
        shared = { label: sharedLabel, store }
        sharedResult = ok(shared)
        throw error
      }
      shared = { label: sharedLabel, store }
      sharedResult = ok(shared)
    },
    resetToken(token) {
      if (!options.isolate) shared.store.reset()
      else byToken.get(token)?.tenant.store.reset()
    },
  }
}
