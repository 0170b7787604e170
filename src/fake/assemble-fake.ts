import { createApp } from './app.js'
import { type Budget, budgetFull, createBudget } from '../service/budget.js'
import { createKeyPolicy, type KeyPolicy } from '../service/auth.js'
import { type ApiError, apiError, FakeInputError, orThrow } from '../service/errors.js'
import { type ForcedRule, type ForcedRuleSpec, parseForcedRule } from './forced.js'
import { parseFixtureRecords } from './fixture.js'
import { isDropped, type PlainRequest, type Reply } from '../service/http.js'
import { type JournalEntry, type JournalFilter, type JournalPage, readJournalPage, readJournals } from './journal.js'
import { type LatencySpec, parseLatency, pickDelay, toLatencySpec } from './latency.js'
import { invalidSnapshot, parseSnapshotGradually } from './snapshot.js'
import type { StatusMix } from './seed-request.js'
import type { IdReservation, Store } from '../service/store.js'
import { createTenants, type Scope, type Tenant, type Tenants } from './tenants.js'
import type { NewPet, Pet } from '../spec/animals-service.js'
import type { Int64 } from '../spec/animals-service.js'
import { definedOnly } from '../service/defined-only.js'

/** Options of `seed`: the generator's seed (random when absent) and status weights. */
export type SeedOptions = {
  readonly seed?: number
  readonly statusMix?: StatusMix
}

/**
 * Makes a source of realistic new animals for a seed; the public `createFake` loads Faker only when
 * first asked.
 */
export type AnimalGenerator = (options: { readonly seed: number } & SeedOptions) => Promise<() => NewPet>

/** What `seed` added. */
export type SeedResult = { readonly added: number; readonly firstId: Int64 | null; readonly lastId: Int64 | null }

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

/** What the core cannot do for itself: the clock, randomness and Faker. */
export type FakeEnvironment = {
  readonly now: () => number
  /** A number in [0, 1). */
  readonly random: () => number
  readonly generate: AnimalGenerator
  /**
   * Lets other work run (the next turn of the event loop): long seeds and snapshot loads pause
   * between chunks, so the API keeps answering meanwhile.
   */
  readonly pause: () => Promise<void>
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
 * One fake service, shared by every transport it is handed to. Its controls cover every store;
 * `store`, `seed`, `snapshot` and `load` act on the one shared store, so under isolation use `forKey`.
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

/** One request to the API and its reply, with whether a test chose the reply (forced, Prefer). */
export type ObservedExchange = { readonly request: PlainRequest; readonly reply: Reply; readonly forced: boolean }
export type ExchangeListener = (exchange: ObservedExchange) => void

/**
 * Creates a fake service from its options and environment.
 * @example assembleFake({ pets }, { now: Date.now, random: Math.random, generate })
 */
export function assembleFake(options: FakeOptions, environment: FakeEnvironment): Fake {
  const { now, random } = environment
  const keys = createKeyPolicy(options.keys ?? [])
  const isolate = options.isolate ?? false
  const { maxAnimals, maxTextChars, maxCacheChars, maxTenants, storeIdleMs: idleMs, ids, journalSize } = options
  const budget = createBudget(definedOnly({ maxAnimals, maxTextChars, maxCacheChars }))
  const latency = options.latency === undefined ? undefined : orThrow(parseLatency(options.latency))
  const tenants = createTenants({ fixture: options.pets ?? [], isolate, budget, now, ...definedOnly({ maxTenants, idleMs, ids, journalSize, latency }) })
  const app = createApp({ keys, tenantFor: tenants.forToken, everyStore: tenants.everyStore, prefer: options.prefer ?? true })
  let listeners: readonly ExchangeListener[] = []
  const storeControls = (tenant: () => Tenant, reset: () => void): StoreControls =>
    joined(scopeControls(tenant, reset, environment.pause), animalControls(tenant, budget, environment))

  // Under isolation there is no shared store: its store controls point the caller to forKey.
  const sharedTenant = (): Tenant => {
    if (isolate) throw new FakeInputError(apiError('invalid_body', 'Under isolation each key has its own store: use forKey(key).'))
    return tenants.shared
  }
  const shared = animalControls(sharedTenant, budget, environment)
  const everyStore = everyStoreControls(tenants, environment.pause)

  const api: Omit<Fake, keyof StoreControls> & Pick<Fake, 'reset'> = {
    keys,
    isolated: isolate,
    handle(request) {
      const receivedAt = now()
      const exchange = app.handle(request)
      if (request.method === 'OPTIONS') return exchange.reply
      const scope: Scope = exchange.tenant ?? tenants.everyStore
      const added = pickDelay(scope.latency, random)
      const reply = added === 0 ? exchange.reply : { ...exchange.reply, delayMs: (exchange.reply.delayMs ?? 0) + added }
      scope.journal.record({
        request,
        receivedAt,
        tenant: exchange.tenant?.label ?? null,
        status: isDropped(reply) ? null : reply.status,
        forced: exchange.forced,
        outcome: exchange.outcome,
        delayMs: reply.delayMs ?? 0,
        ...(isDropped(reply) ? {} : { response: reply }),
      })
      for (const listener of listeners) listener({ request, reply, forced: exchange.forced })
      return reply
    },
    observe(listener) {
      listeners = [...listeners, listener]
      return () => {
        listeners = listeners.filter((other) => other !== listener)
      }
    },
    reset: (pets?: readonly Pet[]) => tenants.reset(pets === undefined ? undefined : checkPets(pets)),
    forKey(key) {
      const tenant = (): Tenant => orThrow(tenants.forToken(key))
      return storeControls(tenant, () => tenants.resetTenant(tenant()))
    },
    forLabel(label) {
      if (tenants.byLabel(label) === undefined) return undefined
      const tenant = (): Tenant => {
        const found = tenants.byLabel(label)
        if (found === undefined) throw new FakeInputError(apiError('invalid_parameter', `No store is labelled ${label} any more.`))
        return found
      }
      return storeControls(tenant, () => tenants.resetTenant(tenant()))
    },
    stores: () => tenants.all().map(({ label, store }) => ({ label, store })),
    budget,
  }
  return joined(joined(everyStore, shared), api)
}

/** Both objects' properties as one object, getters kept as getters (a spread would read them once). */
function joined<A extends object, B extends object>(a: A, b: B): A & B {
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(a), ...Object.getOwnPropertyDescriptors(b) }) as A & B
}

/** The controls of one scope's rules, latency and journal. */
function scopeControls(scope: () => Scope, reset: () => void, pause: () => Promise<void>): Controls {
  return {
    reset,
    journal: (filter = {}) => scope().journal.entries(filter),
    journalPage: (filter) => readJournalPage([scope().journal], filter, pause),
    clearJournal: () => scope().journal.clear(),
    force: (spec) => scope().forced.add(checkRule(spec)),
    forcedRules: () => scope().forced.list(),
    unforce: (id) => (id === undefined ? (scope().forced.clear(), true) : scope().forced.remove(id)),
    get latency() {
      return toLatencySpec(scope().latency)
    },
    setLatency(latency) {
      scope().latency = orThrow(parseLatency(latency))
    },
  }
}

/**
 * The controls of every store at once: under isolation, each store's rules and journal with those
 * set without a key, and a latency that every store takes; without it, the one store's.
 */
function everyStoreControls(tenants: Tenants, pause: () => Promise<void>): Controls {
  const { everyStore } = tenants
  const reset = (): void => tenants.reset()
  if (!tenants.isolated) return scopeControls(() => everyStore, reset, pause)
  const scopes = (): Scope[] => [everyStore, ...tenants.all()]
  return {
    reset,
    journal: (filter = {}) => readJournals(scopes().map((scope) => scope.journal), filter),
    journalPage: (filter) => readJournalPage(scopes().map((scope) => scope.journal), filter, pause),
    clearJournal: () => scopes().forEach((scope) => scope.journal.clear()),
    force: (spec) => everyStore.forced.add(checkRule(spec)),
    forcedRules: () => scopes().flatMap((scope) => scope.forced.list()).sort((a, b) => a.id - b.id),
    unforce: (id) => (id === undefined ? (scopes().forEach((scope) => scope.forced.clear()), true) : scopes().some((scope) => scope.forced.remove(id))),
    get latency() {
      return toLatencySpec(everyStore.latency)
    },
    setLatency(latency) {
      tenants.setLatencyEverywhere(orThrow(parseLatency(latency)))
    },
  }
}

/** The controls of one store's animals: seeding, snapshots, loading. */
function animalControls(tenant: () => Tenant, budget: Budget, environment: FakeEnvironment): Omit<StoreControls, keyof Controls> {
  const { random, generate, pause } = environment
  return {
    get store() {
      return tenant().store
    },
    async seed(count, seedOptions = {}) {
      if (!Number.isSafeInteger(count) || count < 0) {
        throw new FakeInputError(apiError('invalid_body', 'The count must be a whole number.'))
      }
      if (budget.used.animals + count > budget.limits.maxAnimals) throw budgetFull(budget, count)
      const seed = seedOptions.seed ?? Math.floor(random() * 2 ** 32)
      return seedInto(tenant().store, count, await generate({ ...seedOptions, seed }), pause)
    },
    snapshot: () => [...tenant().store.all()],
    load(pets) {
      tenant().store.replace(checkPets(pets))
    },
    async loadSnapshot(json) {
      const bytes = typeof json === 'string' ? new TextEncoder().encode(json) : json
      const pets = await parseSnapshotGradually(bytes, { pause, maxAnimals: budget.limits.maxAnimals })
      if (!pets.ok) throw invalidSnapshot(pets.error)
      const store = tenant().store
      await store.replaceGradually(pets.value, pause)
      return store.size
    },
  }
}

/** Animals a seed makes between pauses: a few milliseconds of work. */
const SEED_CHUNK = 2000

/**
 * Adds `count` animals from `next` to the store, their ids reserved in one go first, pausing
 * between chunks so that the API answers meanwhile.
 */
async function seedInto(store: Store, count: number, next: () => NewPet, pause: () => Promise<void>): Promise<SeedResult> {
  const reserved = store.reserveIds(count)
  if (!reserved.ok) throw new FakeInputError(reserved.error)
  let firstId: Int64 | null = null
  let lastId: Int64 | null = null
  for (let added = 0; added < count; added++) {
    if (added > 0 && added % SEED_CHUNK === 0) await pause()
    const result = store.create(next())
    // What was added stays (creations of the API may sit between its ids): the answer says so.
    if (!result.ok) throw new FakeInputError(added === 0 ? result.error : seedStopped(result.error, { added, count, firstId, lastId }))
    lastId = result.value.pet.id
    firstId ??= lastId
  }
  return { added: count, firstId, lastId }
}

function checkRule(spec: ForcedRuleSpec): ForcedRuleSpec {
  return orThrow(parseForcedRule(spec))
}

function checkPets(pets: unknown): Pet[] {
  const checked = parseFixtureRecords(pets)
  if (!checked.ok) throw new FakeInputError(apiError('invalid_body', checked.error))
  return checked.value
}

/** A seed's error once some of its animals are stored: which, and why the rest are not. */
export function seedStopped(
  refusal: ApiError,
  seeded: { readonly added: number; readonly count: number; readonly firstId: Int64 | null; readonly lastId: Int64 | null },
): ApiError {
  const { added, count, firstId, lastId } = seeded
  return apiError(
    refusal.code,
    `The seed stopped after ${added} of ${count} animals, which stay stored (ids ${firstId} to ${lastId}); the next was refused: ${refusal.message}`,
  )
}
