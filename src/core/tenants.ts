import { type ApiError, apiError } from './errors.js'
import { fail, ok, type Result } from './http.js'
import type { Pet } from './pets.js'
import { type AnimalSet, createStore, prepareAnimals, type Store } from './store.js'

/** One store and the name the journal and dashboard show for it (never the key). */
export type Tenant = { readonly label: string; readonly store: Store }

/** Options of `createTenants`. */
export type TenantsOptions = {
  /** The animals every store starts from. */
  readonly fixture: readonly Pet[]
  /** Each bearer key gets its own store, created from the fixture on first use. */
  readonly isolate: boolean
  readonly maxAnimals?: number
  /** The most isolated stores; a new key past it is refused with 507. */
  readonly maxTenants?: number
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

/** The shared store's label in the journal. */
export const SHARED_TENANT = 'shared'

/**
 * Creates the stores. Isolated stores are keyed by token in memory only; outside this module they
 * are known by their label.
 */
export function createTenants(options: TenantsOptions): Tenants {
  const maxTenants = options.maxTenants ?? 1000
  // Serialised once: every store made from the fixture shares its JSON texts.
  let fixture: AnimalSet = prepareAnimals(options.fixture)
  const newStore = (): Store =>
    createStore(options.maxAnimals === undefined ? { initial: fixture } : { initial: fixture, maxAnimals: options.maxAnimals })
  let shared: Tenant = { label: SHARED_TENANT, store: newStore() }
  // Every request asks for its store: without isolation the answer is always this one, made once.
  let sharedResult = ok(shared)
  const byToken = new Map<string, Tenant>()
  let created = 0
  return {
    isolated: options.isolate,
    get shared() {
      return shared
    },
    forToken(token) {
      if (!options.isolate) return sharedResult
      const known = byToken.get(token)
      if (known !== undefined) return ok(known)
      if (byToken.size >= maxTenants) {
        return fail(apiError('store_full', `The fake holds its maximum of ${maxTenants} isolated stores; reset it.`))
      }
      created += 1
      const tenant = { label: `tenant-${created}`, store: newStore() }
      byToken.set(token, tenant)
      return ok(tenant)
    },
    all: () => (options.isolate ? [...byToken.values()] : [shared]),
    byLabel: (label) => (options.isolate ? [...byToken.values()] : [shared]).find((tenant) => tenant.label === label),
    reset(next) {
      if (next !== undefined) fixture = prepareAnimals(next)
      shared = { label: SHARED_TENANT, store: newStore() }
      sharedResult = ok(shared)
      byToken.clear()
    },
    resetToken(token) {
      if (!options.isolate) shared.store.reset()
      else byToken.get(token)?.store.reset()
    },
  }
}
