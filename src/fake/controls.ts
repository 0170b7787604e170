import { type BudgetLimits, budgetFull } from '../service/budget.js'
import { type ApiError, apiError, FakeInputError, orThrow } from '../service/errors.js'
import type { Result } from '../service/http.js'
import type { AnimalGenerator, SeedOptions } from '../seed/status-mix.js'
import type { Int64 } from '../spec/animals-service.js'
import { type Counts, inTurn, type Maybe, type Refusal, type StorePort, andThen } from '../store/port.js'
import type { ForcedRule, Latency } from '../store/scope.js'
import { checkedPets } from './fixture.js'
import { parseForcedRule, rulesFull } from './forced.js'
import { type JournalFilter, type JournalPage, readJournalPage } from './journal-reader.js'
import { type LatencySpec, parseLatency, toLatencySpec } from './latency.js'
import { refusalError } from './refusals.js'
import { invalidSnapshot, parseSnapshotGradually } from './snapshot.js'

/** A store's label; `undefined` for every store under isolation (without it, the one store is every store). */
export type Target = string | undefined

/** What `seed` added. */
export type SeedResult = { readonly added: number; readonly firstId: Int64 | null; readonly lastId: Int64 | null }

/** What the controls act on, and with what. */
export type ControlsOptions = {
  readonly store: StorePort
  /** The scope of every store: `EVERY_STORE` under isolation, the one store's without it. */
  readonly every: string
  readonly limits: BudgetLimits
  /** The latency of a store when neither it nor every store has one of its own. */
  readonly latency: Latency
  readonly random: () => number
  readonly generate: AnimalGenerator
  /** Lets other work run between the chunks of long work. */
  readonly pause: () => Promise<void>
}

/** Animals a seed generates and creates in one step of the store, between pauses. */
export const SEED_CHUNK = 1000

/** Every control of a fake, once, over its store port: what the control API serves and a fake in memory offers in code. */
export type ControlOps = ReturnType<typeof createControls>

/**
 * The controls over a store port: reset, forced rules, latency, the journal, seeding and snapshots,
 * each of one store (its label) or of every store (`undefined`). Bad input and refusals are thrown
 * as `FakeInputError`s with the Error body to answer.
 */
export function createControls(options: ControlsOptions) {
  const { store, every } = options
  const scopeOf = (target: Target): string => target ?? every
  const refused = (refusal: Refusal): FakeInputError => new FakeInputError(refusalError(refusal, options.limits))
  const settledOr = <T>(result: Result<T, Refusal>): T => {
    if (!result.ok) throw refused(result.error)
    return result.value
  }
  const labels = (target: Target): Maybe<readonly string[]> => (target === undefined ? store.tenants.labels() : [target])
  return {
    /** Back to the start: the animals and ids of the fixture, no forced rule, the starting latency, an empty journal. */
    reset: (target: Target): Maybe<void> =>
      andThen(store.rules.clear(target), () =>
        andThen(store.journal.clear(target), () => andThen(labels(target), (each) => inTurn(each, (label) => andThen(store.animals.renew(label), settledOr)))),
      ),
    force: (target: Target, spec: unknown): Maybe<ForcedRule> =>
      andThen(store.rules.add(scopeOf(target), orThrow(parseForcedRule(spec))), (added) => {
        if (!added.ok) throw new FakeInputError(rulesFull(added.error))
        return added.value
      }),
    rules: (target: Target): Maybe<ForcedRule[]> => store.rules.list(target),
    /** Removes one rule, or every rule of the target without an id; false for an id not there. */
    unforce: (target: Target, id?: number): Maybe<boolean> => store.rules.remove(target, id),
    latency: (target: Target): Maybe<LatencySpec> => andThen(store.rules.view(scopeOf(target), true), (view) => toLatencySpec(view.own.latency ?? view.every.latency ?? options.latency)),
    setLatency: (target: Target, spec: unknown): Maybe<void> => store.rules.setLatency(scopeOf(target), orThrow(parseLatency(spec)), target === undefined),
    journalPage: (target: Target, filter: JournalFilter): Promise<JournalPage> => readJournalPage(store.journal, target, filter, options.pause),
    clearJournal: (target: Target): Maybe<void> => store.journal.clear(target),
    seed: (label: string, count: number, seedOptions: SeedOptions = {}): Promise<SeedResult> => seedInto(options, label, count, seedOptions),
    /** Replaces the animals with `pets` after checking every one. */
    load: (label: string, pets: unknown): Maybe<void> => andThen(store.animals.replace(label, checkedPets(pets)), settledOr),
    /** `load` from a snapshot's JSON bytes, read and checked a chunk at a time; how many animals the store then holds. */
    async loadSnapshot(label: string, json: Uint8Array): Promise<number> {
      const pets = await parseSnapshotGradually(json, { pause: options.pause, maxAnimals: options.limits.maxAnimals })
      if (!pets.ok) throw invalidSnapshot(pets.error)
      settledOr(await store.animals.replace(label, pets.value, options.pause))
      return sizeOf(await store.animals.counts(label))
    },
  }
}

/**
 * Adds `count` generated animals, ids after the highest, `SEED_CHUNK` at a time. Refused whole
 * when they do not fit the budget or their ids cannot be made durable; a seed stopped part-way (the room taken meanwhile by the API's
 * creations) keeps what it added and says so in its error.
 */
async function seedInto(options: ControlsOptions, label: string, count: number, seedOptions: SeedOptions): Promise<SeedResult> {
  if (!Number.isSafeInteger(count) || count < 0) throw new FakeInputError(apiError('invalid_body', 'The count must be a whole number.'))
  const { store, limits } = options
  const held = await store.animals.held()
  if (held.animals + count > limits.maxAnimals) throw new FakeInputError(budgetFull(limits, held, count))
  const reserved = await store.animals.reserve(label, count)
  if (!reserved.ok) throw new FakeInputError(refusalError(reserved.error, limits))
  const next = await options.generate({ ...seedOptions, seed: seedOptions.seed ?? Math.floor(options.random() * 2 ** 32) })
  let firstId: Int64 | null = null
  let lastId: Int64 | null = null
  for (let added = 0; added < count; added += SEED_CHUNK) {
    if (added > 0) await options.pause()
    const made = await store.animals.createMany(label, Array.from({ length: Math.min(SEED_CHUNK, count - added) }, next))
    // What was added stays (creations of the API may sit between its ids): the answer says so.
    if (!made.ok) {
      const refusal = refusalError(made.error, limits)
      throw new FakeInputError(added === 0 ? refusal : seedStopped(refusal, { added, count, firstId, lastId }))
    }
    firstId ??= made.value.firstId
    lastId = made.value.lastId
  }
  return { added: count, firstId, lastId }
}

/** A seed's error once some of its animals are stored: which, and why the rest are not. */
function seedStopped(refusal: ApiError, seeded: { readonly added: number; readonly count: number; readonly firstId: Int64 | null; readonly lastId: Int64 | null }): ApiError {
  const { added, count, firstId, lastId } = seeded
  return apiError(refusal.code, `The seed stopped after ${added} of ${count} animals, which stay stored (ids ${firstId} to ${lastId}); the next was refused: ${refusal.message}`)
}

/** How many animals a store holds: those of every status and those without one. */
export function sizeOf(counts: Counts): number {
  let size = 0
  for (const count of Object.values(counts)) size += count
  return size
}
