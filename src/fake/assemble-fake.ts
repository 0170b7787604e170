import { type Budget, createBudget } from '../service/budget.js'
import type { KeyPolicy } from '../service/auth.js'
import { apiError, FakeInputError, orThrow } from '../service/errors.js'
import type { PlainRequest, Reply } from '../service/http.js'
import { definedOnly } from '../service/defined-only.js'
import type { SeedOptions } from '../seed/status-mix.js'
import type { Pet } from '../spec/animals-service.js'
import type { IdReservation, Store } from '../memory/animals.js'
import { createMemoryStore, type MemoryStore } from '../memory/memory-store.js'
import type { JournalEntry } from '../store/journal-entry.js'
import { settled } from '../store/port.js'
import { type ForcedRule, type ForcedRuleSpec, SHARED_STORE } from '../store/scope.js'
import { refusalError } from './refusals.js'
import type { Target, SeedResult } from './controls.js'
import { createFakeCore, type FakeCore, type FakeEnvironment } from './fake-core.js'
import { checkedPets } from './fixture.js'
import { type JournalFilter, type JournalPage, readJournal } from './journal-reader.js'
import { type LatencySpec, parseLatency } from './latency.js'
import type { ExchangeListener } from './pipeline.js'

/** Options of a fake; `createFake` fills in the clock, randomness and generator. */
export type FakeOptions = {
  /** The animals the fake starts from and returns to on `reset()`. */
  readonly pets?: readonly Pet[]
  /** Accepted bearer keys; none means any non-empty token is accepted. */
  readonly keys?: readonly string[]
  /** The most animals every store together holds; creating past it answers 507 and nothing is evicted. */
  readonly maxAnimals?: number
  /** The most characters of animal text every store together holds (names are what makes it grow). */
  readonly maxTextChars?: number
  /** The most characters of list answers kept for reuse, every store together. */
  readonly maxCacheChars?: number
  /** Each bearer key gets its own store, created from `pets` on first use. */
  readonly isolate?: boolean
  /** The most isolated stores at once. */
  readonly maxTenants?: number
  /** An isolated store unused this long is dropped. */
  readonly storeIdleMs?: number
  /** Ids never to hand out again, kept by the node adapter with a state file; not with `isolate`. */
  readonly ids?: IdReservation
  /** How many requests each store's journal keeps: 1,000 by default; 0 keeps none. */
  readonly journalSize?: number
  /** Latency added to every API answer from the start. */
  readonly latency?: LatencySpec
  /**
   * Whether a request's `Prefer: code=NNN` (Prism's header) picks its answer: an error status with
   * the Error body, or the operation's success when it can be had. On unless false.
   */
  readonly prefer?: boolean
}

/**
 * The controls every scope has: the whole fake, or one key's store under isolation. What they
 * change belongs to their scope alone: one store's rules, latency and journal never reach another's.
 */
export type Controls = {
  /**
   * Back to the start: the animals and ids of the fixture, no forced rule, the starting latency
   * and an empty journal, everything a test can change.
   */
  reset(): void
  /** Requests this scope answered, oldest first. */
  journal(filter?: JournalFilter): JournalEntry[]
  /** One page of them as JSON texts, within `JOURNAL_PAGE_CHARS`: what `GET /__control/journal` answers. */
  journalPage(filter: JournalFilter): Promise<JournalPage>
  clearJournal(): void
  /** Forces answers on this scope's requests; see `ForcedRuleSpec`. */
  force(spec: ForcedRuleSpec): ForcedRule
  forcedRules(): ForcedRule[]
  /** Removes one rule, or every rule of this scope when no id is given; false for an id not in this scope. */
  unforce(id?: number): boolean
  /** The latency added to this scope's answers. */
  readonly latency: LatencySpec
  /** Sets the latency of this scope's answers: `{ ms }` fixed, `{ minMs, maxMs }` random in range, `{}` none. */
  setLatency(latency: LatencySpec): void
}

/** The controls of one store: the shared one, or one key's under isolation. */
export type StoreControls = Controls & {
  /** The store itself (read it; change it through the API or these controls). */
  readonly store: Store
  /**
   * Adds `count` generated animals, ids after the highest. Refused whole when they do not fit the
   * budget or their ids cannot be reserved; a seed stopped part-way (the room taken meanwhile by the
   * API's creations) keeps what it added and says so in its error.
   */
  seed(count: number, options?: SeedOptions): Promise<SeedResult>
  /** Every animal, ascending id: loadable as a fixture. */
  snapshot(): Pet[]
  /** Replaces the animals with `pets` after checking every one; `reset()` still returns to the fixture. */
  load(pets: readonly Pet[] | unknown): void
  /**
   * `load` from a snapshot's JSON (text, or UTF-8 bytes as a request body has it), read and checked
   * a chunk at a time with pauses between, so that a large snapshot does not stop the API;
   * resolves with how many animals the store then holds.
   */
  loadSnapshot(json: string | Uint8Array): Promise<number>
}

/**
 * One fake service in this process's memory, shared by every transport it is handed to. Its
 * controls cover every store; `store`, `seed`, `snapshot` and `load` act on the one shared store,
 * so under isolation use `forKey`.
 */
export type Fake = StoreControls & {
  /** The API with its controls: journal, forced responses, latency. */
  handle(request: PlainRequest): Reply
  readonly keys: KeyPolicy
  readonly isolated: boolean
  /** Every store back to the fixture, or to `pets` when given (they become the fixture). */
  reset(pets?: readonly Pet[]): void
  /** The controls of one key's store under isolation (created from the fixture on first use). */
  forKey(key: string): StoreControls
  /** The controls of a store in use, by the label the journal shows (`shared`, `tenant-2`). */
  forLabel(label: string): StoreControls | undefined
  /** Every store in use with its label: the shared one, or the isolated ones. */
  stores(): { label: string; store: Store }[]
  /** The room every store shares, and how much of it is used. */
  readonly budget: Budget
  /**
   * Calls `listener` with every API exchange as it is answered (a pact recorder listens so);
   * returns the call that stops it. Preflights are not exchanges.
   */
  observe(listener: ExchangeListener): () => void
}

/** The one fake behind each `Fake`, as the control API and the servers take it. */
const cores = new WeakMap<Fake, FakeCore>()

/** The fake behind a `Fake` made by `assembleFake` (`createFake`): what `createControl` serves. */
export function coreOf(fake: Fake): FakeCore {
  const core = cores.get(fake)
  if (core === undefined) throw new Error('coreOf: not a fake made by createFake()')
  return core
}

/**
 * Creates a fake service in memory from its options and environment: the one fake (`createFakeCore`)
 * over the memory adapter, with controls that answer at once.
 * @example assembleFake({ pets }, { now: Date.now, random: Math.random, generate, pause })
 */
export function assembleFake(options: FakeOptions, environment: FakeEnvironment): Fake {
  const isolate = options.isolate ?? false
  const { maxAnimals, maxTextChars, maxCacheChars, ids, journalSize } = options
  const budget = createBudget(definedOnly({ maxAnimals, maxTextChars, maxCacheChars }))
  const store = createMemoryStore({ fixture: checkedPets(options.pets ?? []), isolate, budget, ...definedOnly({ ids, journalSize }) })
  const latency = options.latency === undefined ? undefined : orThrow(parseLatency(options.latency))
  const core = createFakeCore(store, { keys: options.keys ?? [], isolate, prefer: options.prefer ?? true, limits: budget.limits, ...definedOnly({ latency, maxStores: options.maxTenants, idleMs: options.storeIdleMs }) }, environment)
  // The fake's own controls cover every store; its store controls act on the shared one, which
  // under isolation there is not: they point the caller to forKey.
  const shared = storeControls(core, store, () => (isolate ? undefined : SHARED_STORE), () => {
    if (isolate) throw new FakeInputError(apiError('invalid_body', 'Under isolation each key has its own store: use forKey(key).'))
    return SHARED_STORE
  })
  const inUse = (label: string): string => {
    storeIn(store, label)
    return label
  }
  const labelled = (label: string): StoreControls => storeControls(core, store, () => inUse(label), () => inUse(label))
  const fake: Fake = joined(shared, {
    handle: (request: PlainRequest): Reply => settled(core.handle(request)),
    keys: core.keys,
    isolated: isolate,
    reset(pets?: readonly Pet[]) {
      if (pets !== undefined) {
        const set = store.setFixture(checkedPets(pets))
        if (!set.ok) throw new FakeInputError(refusalError(set.error, budget.limits))
      }
      settled(core.controls.reset(isolate ? undefined : SHARED_STORE))
    },
    forKey: (key: string) => labelled(orThrow(settled(core.tenancy.storeFor(key)))),
    forLabel: (label: string) => (store.storeOf(label) === undefined ? undefined : labelled(label)),
    stores: () => settled(store.tenants.labels()).map((label) => ({ label, store: storeIn(store, label) })),
    budget,
    observe: core.observe,
  })
  cores.set(fake, core)
  return fake
}

/**
 * The in-code controls of a scope (`scope`: a store's label, or every store) and its store
 * (`label`), over the same controls the control API serves: the memory adapter answers at once.
 */
function storeControls(core: FakeCore, store: MemoryStore, scope: () => Target, label: () => string): StoreControls {
  const { controls } = core
  return {
    reset: () => settled(controls.reset(scope())),
    journal: (filter = {}) => readJournal(store.journal.chunks(scope()), filter),
    journalPage: (filter) => controls.journalPage(scope(), filter),
    clearJournal: () => settled(controls.clearJournal(scope())),
    force: (spec) => settled(controls.force(scope(), spec)),
    forcedRules: () => settled(controls.rules(scope())),
    unforce: (id) => settled(controls.unforce(scope(), id)),
    get latency() {
      return settled(controls.latency(scope()))
    },
    setLatency: (latency) => settled(controls.setLatency(scope(), latency)),
    get store() {
      return storeIn(store, label())
    },
    seed: (count, seedOptions) => controls.seed(label(), count, seedOptions),
    snapshot: () => storeIn(store, label()).all(),
    load: (pets) => settled(controls.load(label(), pets)),
    loadSnapshot: (json) => controls.loadSnapshot(label(), typeof json === 'string' ? new TextEncoder().encode(json) : json),
  }
}

/** A store in use by its label; refused with the Error body when it was dropped since. */
function storeIn(store: MemoryStore, label: string): Store {
  const found = store.storeOf(label)
  if (found === undefined) throw new FakeInputError(apiError('invalid_parameter', `No store is labelled ${label} any more.`))
  return found
}

/** Both objects' properties as one object, getters kept as getters (a spread would read them once). */
function joined<A extends object, B extends object>(a: A, b: B): A & B {
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(a), ...Object.getOwnPropertyDescriptors(b) }) as A & B
}
