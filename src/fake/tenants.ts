import type { Budget } from '../service/budget.js'
import { type ApiError, apiError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { type AnimalSet, createStore, type IdReservation, prepareAnimals, type Store } from '../service/store.js'
import type { Pet } from '../spec/animals-service.js'
import { definedOnly } from '../service/defined-only.js'
import { createForcedRulePool, createForcedRules, type ForcedRulePool, type ForcedRules } from './forced.js'
import { createJournal, createJournalPool, type Journal, type JournalPool } from './journal.js'
import { type Latency, NO_LATENCY } from './latency.js'

/**
 * What a test can change besides the animals, in one scope: its forced rules, its latency and its
 * journal. Each store has its own; under isolation, the scope of every store (`label` null) holds
 * the rules set without a key, the latency new stores start with, and the requests no store took.
 */
export type Scope = {
  /** The store's label; `null` for every store under isolation. */
  readonly label: string | null
  readonly forced: ForcedRules
  readonly journal: Journal
  /** Added to every answer given in this scope. */
  latency: Latency
}

/** One store and what belongs to it alone; known by its label (never the key). */
export type Tenant = Scope & { readonly label: string; readonly store: Store }

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
  /** How many requests each store's journal keeps. */
  readonly journalSize?: number
  /** What every journal keeps together, in bytes (`JOURNAL_BYTES_IN_ALL` unless given). */
  readonly journalBytes?: number
  /** The latency every scope starts with, and returns to on reset. */
  readonly latency?: Latency
}

/** The stores of a fake: one shared store, or one per key under isolation. */
export type Tenants = {
  readonly isolated: boolean
  /** The store every key uses without isolation. */
  readonly shared: Tenant
  /** The scope of every store: the shared store itself without isolation. */
  readonly everyStore: Scope
  /** The store of an accepted key, created on first use under isolation. */
  forToken(token: string): Result<Tenant, ApiError>
  /** Every store in use: the shared one, or the isolated ones. */
  all(): Tenant[]
  /** A store in use by its label. */
  byLabel(label: string): Tenant | undefined
  /**
   * Everything back to the start: every store to the fixture (isolated stores are dropped and made
   * again on next use), every rule removed, every journal emptied, the starting latency.
   */
  reset(fixture?: readonly Pet[]): void
  /** One store back to how a new one starts: its animals and ids, no rules, an empty journal, the latency of every store. */
  resetTenant(tenant: Tenant): void
  /** One key's store back to its start (the shared store without isolation); a key with no store has nothing to reset. */
  resetToken(token: string): void
  /** Sets the latency of every store, and of the stores made later. */
  setLatencyEverywhere(latency: Latency): void
}

/** Isolated stores: at most 1,000, each dropped after 30 minutes without a request. */
export const TENANT_LIMITS = { maxTenants: 1000, idleMs: 30 * 60 * 1000 } as const

type Slot = { readonly tenant: Tenant; lastUsed: number }

/** What every scope draws from: the ids of rules, and the journals' room and order. */
type Pools = { readonly rules: ForcedRulePool; readonly journals: JournalPool; readonly journalSize: number | undefined }

function createScope(label: string | null, latency: Latency, pools: Pools): Scope {
  return { label, forced: createForcedRules(label, pools.rules), journal: createJournal(pools.journalSize, pools.journals), latency }
}

/** A dropped store gives back its room: animals in the budget, rules and journal in their pools. */
function release(tenant: Tenant): void {
  tenant.store.release()
  tenant.forced.clear()
  tenant.journal.release()
}

/** Forgets what a scope holds besides its animals; the caller sets its latency. */
function emptyScope(scope: Scope): void {
  scope.forced.clear()
  scope.journal.clear()
}

/**
 * The isolated stores by key: each made on its key's first request (`make`, which may refuse), each
 * dropped after `idleMs` without one, at most `maxTenants` at once.
 */
type Slots = {
  forToken(token: string): Result<Tenant, ApiError>
  /** The store of a key that has one, without making one. */
  known(token: string): Tenant | undefined
  all(): Tenant[]
  dropAll(): void
}

type SlotsOptions = { readonly maxTenants: number; readonly idleMs: number; readonly now: () => number; readonly make: (label: string) => Result<Tenant, ApiError> }

function createSlots({ maxTenants, idleMs, now, make }: SlotsOptions): Slots {
  const byToken = new Map<string, Slot>()
  let created = 0
  let nextSweep = 0
  const drop = (token: string, slot: Slot): void => {
    release(slot.tenant)
    byToken.delete(token)
  }
  return {
    forToken(token) {
      const at = now()
      // A sweep costs a walk over the stores: at most once a minute, or when a slot is wanted.
      if (at >= nextSweep) {
        for (const [other, slot] of byToken) if (at - slot.lastUsed >= idleMs) drop(other, slot)
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
      const made = make(`tenant-${created + 1}`)
      if (!made.ok) return made
      created += 1
      byToken.set(token, { tenant: made.value, lastUsed: at })
      return made
    },
    known: (token) => byToken.get(token)?.tenant,
    all: () => [...byToken.values()].map((slot) => slot.tenant),
    dropAll() {
      for (const [token, slot] of byToken) drop(token, slot)
    },
  }
}

/**
 * Creates the stores. Isolated stores are keyed by token in memory only; outside this module they
 * are known by their label.
 */
export function createTenants(options: TenantsOptions): Tenants {
  const { budget } = options
  // The shared store's label in the journal and the control API.
  const sharedLabel = 'shared'
  const startLatency = options.latency ?? NO_LATENCY
  const pools: Pools = { rules: createForcedRulePool(), journals: createJournalPool(options.journalBytes), journalSize: options.journalSize }
  // Serialised once: every store made from the fixture shares its JSON texts.
  let fixture: AnimalSet = prepareAnimals(options.fixture)
  const newShared = (): Store => createStore({ initial: fixture, budget, ...definedOnly({ ids: options.ids }) })
  // Under isolation the shared store serves no request; it stays outside the budget. A reset with
  // a new fixture gives it a new store, so its store is the one field that changes.
  const shared: Scope & { readonly label: string; store: Store } = {
    ...createScope(sharedLabel, startLatency, pools),
    label: sharedLabel,
    store: options.isolate ? createStore({ initial: fixture }) : newShared(),
  }
  // Every request asks for its store: without isolation the answer is always this one, made once.
  const sharedResult = ok<Tenant>(shared)
  const everyStore: Scope = options.isolate ? createScope(null, startLatency, pools) : shared
  const slots = createSlots({
    maxTenants: options.maxTenants ?? TENANT_LIMITS.maxTenants,
    idleMs: options.idleMs ?? TENANT_LIMITS.idleMs,
    now: options.now,
    make(label) {
      try {
        return ok({ ...createScope(label, everyStore.latency, pools), label, store: createStore({ initial: fixture, budget }) })
      } catch {
        return fail(apiError('store_full', `No room for another store of ${fixture.ids.length} animals: every store together holds ${budget.used.animals} of at most ${budget.limits.maxAnimals}.`))
      }
    },
  })

  // The shared store made again from the fixture, in place of the old one.
  function renewShared(): void {
    shared.store.release()
    shared.store = newShared()
  }

  const tenants: Tenants = {
    isolated: options.isolate,
    shared,
    everyStore,
    forToken: (token) => (options.isolate ? slots.forToken(token) : sharedResult),
    all: () => (options.isolate ? slots.all() : [shared]),
    byLabel: (label) => tenants.all().find((tenant) => tenant.label === label),
    reset(next) {
      const previous = fixture
      if (next !== undefined) fixture = prepareAnimals(next)
      emptyScope(everyStore)
      everyStore.latency = startLatency
      if (options.isolate) {
        slots.dropAll()
        return
      }
      try {
        renewShared()
      } catch (error) {
        // The new fixture does not fit the budget: back to the previous one, which did.
        fixture = previous
        renewShared()
        throw error
      }
    },
    resetTenant(tenant) {
      tenant.store.reset()
      emptyScope(tenant)
      tenant.latency = options.isolate ? everyStore.latency : startLatency
    },
    resetToken(token) {
      const tenant = options.isolate ? slots.known(token) : shared
      if (tenant !== undefined) tenants.resetTenant(tenant)
    },
    setLatencyEverywhere(latency) {
      everyStore.latency = latency
      for (const tenant of tenants.all()) tenant.latency = latency
    },
  }
  return tenants
}
