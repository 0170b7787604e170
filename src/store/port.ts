/**
 * The store port: everything one fake keeps, as its backends keep it. One fake (src/fake) runs
 * over it; memory (src/memory) and Redis (src/redis) are its adapters. An operation answers at
 * once (memory: a value) or later (Redis: a Promise), so the in-memory path never waits; an
 * adapter that cannot reach its backend rejects with `StoreUnavailable`. An adapter keeps data and
 * counts; every rule of the fake (the order of checks, the messages, the policy of stores per key)
 * is the fake's.
 */
import type { Result } from '../service/http.js'
import type { Int64, NewPet, Pet, PetStatus } from '../spec/animals-service.js'
import type { JournalRecord, KeptEntry } from './journal-entry.js'
import type { ForcedRule, ForcedRuleSpec, Latency, RulesFull, ScopeView } from './scope.js'

/** A value now, or later. */
export type Maybe<T> = T | Promise<T>

/**
 * `next` of `value`: at once when `value` is there (the memory adapter's), after it when it is a
 * Promise. (Not named `then`: a module exporting `then` is taken for a Promise by `await import()`.)
 * @example andThen(store.rules.view('shared'), (view) => view.own.rules.length)
 */
export function andThen<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}

/** `step` of each item in turn, each after the one before has settled. */
export function inTurn<T>(items: readonly T[], step: (item: T) => Maybe<void>): Maybe<void> {
  let done: Maybe<void> = undefined
  for (const item of items) done = andThen(done, () => step(item))
  return done
}

/**
 * The value of an operation that answers at once: the in-code controls of a fake in memory are
 * synchronous, and its adapter never returns a Promise; a Promise here is a bug.
 */
export function settled<T>(value: Maybe<T>): T {
  if (value instanceof Promise) throw new Error('an in-memory store answered later: settled() is for the memory adapter')
  return value
}

/** The backend did not answer in time, or cannot serve now (Redis down, loading, out of memory): try again. */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable'
}

/** How many animals each status has in a store, and how many have none. */
export type Counts = Readonly<Record<PetStatus | 'none', number>>

/** What every store holds together: what the budget counts. */
export type Held = { readonly animals: number; readonly chars: number }

/**
 * Why a store took no animal in: no room in the budget (with what every store holds), no int64 id
 * left to hand out, or ids that could not be made durable (a state file on a full disk).
 */
export type Refusal = NoRoom | { readonly kind: 'no_ids' } | { readonly kind: 'not_durable'; readonly adding: number }

/** No room in the budget for `adding` more animals, with what every store holds together. */
export type NoRoom = { readonly kind: 'no_room'; readonly adding: number; readonly held: Held }

/** Why a key got no store of its own: the most stores are in use, or the budget has no room for the fixture. */
export type ClaimRefusal = { readonly kind: 'no_store'; readonly max: number } | NoRoom

/** A created animal's id and JSON text. */
export type Created = { readonly id: Int64; readonly json: string }

/** What a request asks of its store's animals. */
export type Operation =
  | { readonly kind: 'list'; readonly limit: number; readonly status: PetStatus | undefined }
  | { readonly kind: 'get'; readonly id: Int64 }
  | { readonly kind: 'create'; readonly newPet: NewPet }

/** What an operation found. */
export type Found =
  | { readonly kind: 'list'; readonly json: string }
  | { readonly kind: 'get'; readonly id: Int64; readonly json: string | undefined }
  | { readonly kind: 'create'; readonly created: Result<Created, Refusal> }
  | { readonly kind: 'none' }

/** A rule a request matched, counted as used when it has `times`. */
export type Taken = { readonly scope: string; readonly id: number }

/** What `perform` answers when the rules or latency moved since the view it was given: nothing was done. */
export const STALE = 'stale'

/**
 * A store's animals: what the control API reads and changes; the API's own operations are `perform`'s.
 * A store is named by its label; the fixture is the adapter's, made ready once.
 */
export type AnimalsPort = {
  counts(label: string): Maybe<Counts>
  /** Where the first animal (of one status) whose id is `id` or above stands in id order. */
  offsetOf(label: string, status: PetStatus | undefined, id: Int64): Maybe<number>
  /**
   * `count` animals' JSON texts (of one status) in ascending id order, from the `offset`-th. Given
   * `maxChars`, it may stop early, after the text that brings those read to that many characters
   * (never before the first): a backend that copies texts (Redis) reads a long scan in bounded steps.
   */
  slice(label: string, status: PetStatus | undefined, offset: number, count: number, maxChars?: number): Maybe<readonly string[]>
  /**
   * Makes the ids of the next `count` animals durable before any is handed out, so that a seed on a
   * full disk (a state file) is refused whole; a backend whose ids are durable as they are handed
   * out (Redis) has nothing to do.
   */
  reserve(label: string, count: number): Maybe<Result<void, Refusal>>
  /** Creates animals in one step, ids one after another: all of them, or none. */
  createMany(label: string, newPets: readonly NewPet[]): Maybe<Result<{ readonly firstId: Int64; readonly lastId: Int64 }, Refusal>>
  /**
   * Replaces every animal with `pets` at once, or refuses, keeping those it had. Given `pause`, it
   * prepares them a chunk at a time between pauses.
   */
  replace(label: string, pets: readonly Pet[], pause?: () => Promise<void>): Maybe<Result<void, Refusal>>
  /** Back to the fixture's animals. */
  renew(label: string): Maybe<Result<void, Refusal>>
  /** What every store holds together. */
  held(): Maybe<Held>
}

/** Each scope's forced rules and latency. */
export type RulesPort = {
  /** What a request to `label`'s store meets; `fresh` reads it anew where the adapter keeps a copy. */
  view(label: string, fresh?: boolean): Maybe<ScopeView>
  /** Adds a rule to a scope, refused past `MAX_FORCED_RULES` there or `MAX_FORCED_RULES_IN_ALL` in all. */
  add(scope: string, spec: ForcedRuleSpec): Maybe<Result<ForcedRule, RulesFull>>
  /** A scope's rules, or every scope's (`undefined`), by id. */
  list(scope: string | undefined): Maybe<ForcedRule[]>
  /** Removes the rule `id` of a scope (any scope: `undefined`), or every rule there without an id; false for an id not there. */
  remove(scope: string | undefined, id: number | undefined): Maybe<boolean>
  /** Sets a scope's latency; `everywhere` sets it for every scope at once (the others' own forgotten). */
  setLatency(scope: string, latency: Latency, everywhere: boolean): Maybe<void>
  /** Forgets a scope's rules and latency, or every scope's (`undefined`). */
  clear(scope: string | undefined): Maybe<void>
}

/** Each scope's requests. */
export type JournalPort = {
  /** Keeps one request in its scope's journal. */
  record(scope: string, record: JournalRecord): Maybe<void>
  /**
   * The entries kept in a scope, or every scope (`undefined`), a chunk at a time, each chunk in
   * order. Given `newest`, only the entries among each scope's `newest` newest are needed (a
   * backend that copies them, Redis, reads those alone; memory may give all).
   */
  chunks(scope: string | undefined, newest?: number): Iterable<readonly KeptEntry[]> | AsyncIterable<readonly KeptEntry[]>
  /** How many entries a scope, or every scope, keeps. */
  size(scope: string | undefined): Maybe<number>
  /** Forgets a scope's entries, or every scope's. */
  clear(scope: string | undefined): Maybe<void>
}

/** The stores of keys under isolation (`--isolate`): which are in use, known by labels that are not the keys. */
export type TenantsPort = {
  /** The store of a key, made from the fixture unless one is in use, now used at `at`: its label. */
  claim(token: string, at: number, maxStores: number): Maybe<Result<string, ClaimRefusal>>
  /** Drops every store last used at or before `before`, with its rules, latency and journal. */
  dropIdle(before: number): Maybe<void>
  /** The labels of the stores in use. */
  labels(): Maybe<readonly string[]>
}

/** Everything one fake keeps. */
export type StorePort = {
  readonly animals: AnimalsPort
  readonly rules: RulesPort
  readonly journal: JournalPort
  readonly tenants: TenantsPort
  /**
   * One request's step, in one atomic step of the backend: if `view` is still what the store's
   * scopes hold, counts `taken` as used and performs `operation`; else does nothing and answers `STALE`.
   */
  perform(label: string, view: ScopeView, taken: Taken | undefined, operation: Operation | undefined): Maybe<Found | typeof STALE>
  /**
   * Whether the backend answers now (memory: always). While it does not (Redis unreachable, or
   * frozen past a command's deadline), an answer that needs nothing of the store but its rules is
   * given from the rules this replica knows, at once.
   */
  answering(): boolean
}
