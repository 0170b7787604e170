import type { Budget } from '../service/budget.js'
import { fail, ok, type Result } from '../service/http.js'
import type { Pet } from '../spec/animals-service.js'
import { type Found, type NoRoom, type Operation, type Refusal, STALE, type StorePort, type TenantsPort } from '../store/port.js'
import { EVERY_STORE, SHARED_STORE } from '../store/scope.js'
import { offsetOfId } from './animal-index.js'
import { type AnimalSet, type IdReservation, openStore, prepareAnimals, type Store } from './animals.js'
import { createMemoryJournal, type MemoryJournal } from './journal.js'
import { createMemoryRules, type MemoryRules } from './rules.js'

/** Options of `createMemoryStore`. */
export type MemoryStoreOptions = {
  /** The animals every store starts from and returns to. */
  readonly fixture: readonly Pet[]
  /** One store per key (`claim`), rather than the one shared store. */
  readonly isolate: boolean
  /** The room every store shares. */
  readonly budget: Budget
  /** Ids the shared store must never hand out again (a state file); not for the stores of keys. */
  readonly ids?: IdReservation
  /** How many requests each scope's journal keeps. */
  readonly journalSize?: number
  /** What every journal keeps together, in bytes. */
  readonly journalBytes?: number
}

/** The store port in this process's memory, with its stores as objects. */
export type MemoryStore = Omit<StorePort, 'journal'> & {
  readonly journal: MemoryJournal
  /** A store in use by its label. */
  storeOf(label: string): Store | undefined
  /** Makes `pets` the fixture, and the shared store (without isolation) one of them; refused, changing nothing, past the budget. */
  setFixture(pets: readonly Pet[]): Result<void, Refusal>
}

/** A store of a key: its label and when it was last used. */
type Slot = { readonly label: string; readonly store: Store; lastUsed: number }

/**
 * The store port over memory: the shared store, or under isolation a store per key (`tenant-1`,
 * `tenant-2`, ... in the order keys first came), each made from the fixture, whose texts they all
 * share. Every operation answers at once.
 */
export function createMemoryStore(options: MemoryStoreOptions): MemoryStore {
  const { budget, isolate } = options
  const rules: MemoryRules = createMemoryRules(isolate ? EVERY_STORE : SHARED_STORE)
  const journal: MemoryJournal = createMemoryJournal(options.journalSize, options.journalBytes)
  // Serialised once: every store made from the fixture shares its JSON texts.
  let fixture: AnimalSet = prepareAnimals(options.fixture)
  const open = (ids?: IdReservation): Result<Store, NoRoom> => openStore({ initial: fixture, budget, ...(ids === undefined ? {} : { ids }) })
  const slots = new Map<string, Slot>()
  if (!isolate) {
    const shared = open(options.ids)
    if (!shared.ok) throw new Error(`the fixture does not fit the budget (${shared.error.kind})`)
    slots.set(SHARED_STORE, { label: SHARED_STORE, store: shared.value, lastUsed: 0 })
  }
  const storeOf = (label: string): Store => {
    const slot = slots.get(label)
    if (slot === undefined) throw new Error(`no store is labelled ${label}`)
    return slot.store
  }
  const tenants = memoryTenants(slots, () => open(), (slot) => {
    slot.store.release()
    rules.drop(slot.label)
    journal.drop(slot.label)
  })
  return {
    animals: {
      counts: (label) => storeOf(label).counts(),
      offsetOf: (label, status, id) => offsetOfId(storeOf(label).view(status), id),
      slice: (label, status, offset, count) => storeOf(label).page(offset, count, status),
      reserve: (label, count) => storeOf(label).reserveIds(count),
      createMany: (label, newPets) => storeOf(label).createMany(newPets),
      replace: (label, pets, pause) => (pause === undefined ? storeOf(label).replace(pets) : storeOf(label).replaceGradually(pets, pause)),
      renew: (label) => storeOf(label).reset(fixture),
      held: () => ({ animals: budget.used.animals, chars: budget.used.chars }),
    },
    rules,
    journal,
    tenants,
    answering: () => true,
    perform: (label, _view, taken, operation) => {
      if (taken !== undefined) rules.take(taken.scope, taken.id)
      return operation === undefined ? NOTHING : performOn(storeOf(label), operation)
    },
    storeOf: (label) => slots.get(label)?.store,
    setFixture(pets) {
      const next = prepareAnimals(pets)
      // The shared store takes it at once; the stores of keys on their next reset. Past the budget, the fixture stays as it was.
      const renewed = slots.get(SHARED_STORE)?.store.reset(next) ?? ok(undefined)
      if (renewed.ok) fixture = next
      return renewed
    },
  }
}

const NOTHING: Found | typeof STALE = { kind: 'none' }

function performOn(store: Store, operation: Operation): Found {
  switch (operation.kind) {
    case 'list':
      return { kind: 'list', json: store.listJson(operation.limit, operation.status) }
    case 'get':
      return { kind: 'get', id: operation.id, json: store.get(operation.id) }
    case 'create':
      return { kind: 'create', created: store.create(operation.newPet) }
  }
}

/**
 * The stores of keys in `slots`: a label each (`tenant-<n>`, counted from 1), made with `open` on
 * the key's first request; `release` lets go of what a dropped store held.
 */
function memoryTenants(slots: Map<string, Slot>, open: () => Result<Store, NoRoom>, release: (slot: Slot) => void): TenantsPort {
  const tokens = new Map<string, Slot>()
  let made = 0
  return {
    claim(token, at, maxStores) {
      const known = tokens.get(token)
      if (known !== undefined) {
        known.lastUsed = at
        return ok(known.label)
      }
      if (tokens.size >= maxStores) return fail({ kind: 'no_store', max: maxStores })
      const opened = open()
      if (!opened.ok) return opened
      made += 1
      const slot: Slot = { label: `tenant-${made}`, store: opened.value, lastUsed: at }
      tokens.set(token, slot)
      slots.set(slot.label, slot)
      return ok(slot.label)
    },
    dropIdle(before) {
      for (const [token, slot] of tokens) {
        if (slot.lastUsed > before) continue
        release(slot)
        slots.delete(slot.label)
        tokens.delete(token)
      }
    },
    labels: () => [...slots.keys()],
  }
}
