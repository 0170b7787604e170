import defaultFixture from '../fixtures/default.json' with { type: 'json' }
import { generateLazily } from './seed/generate-lazily.js'
import { assembleFake, type Fake, type FakeOptions } from './fake/assemble-fake.js'
import { parseFixtureRecords } from './fake/fixture.js'
import { nextTurn } from './fake/next-turn.js'
import type { Pet } from './spec/animals-service.js'

export type { Fake, FakeOptions }
// What a Fake's methods take and give, so that its users can name them.
export type { Controls, StoreControls } from './fake/assemble-fake.js'
export type { SeedResult } from './fake/controls.js'
export type { ExchangeListener, ObservedExchange } from './fake/pipeline.js'
export type { SeedOptions, StatusMix } from './seed/status-mix.js'
export type { ForcedRule, ForcedRuleSpec } from './store/scope.js'
export type { JournalEntry, JournalResponse, Outcome } from './store/journal-entry.js'
export type { JournalFilter, JournalPage } from './fake/journal-reader.js'
export type { LatencySpec } from './fake/latency.js'
export type { KeyPolicy } from './service/auth.js'
export type { Budget, BudgetLimits } from './service/budget.js'
export type { ApiError, ErrorCode } from './service/errors.js'
export type { ConstantFields, DroppedConnection, Fields, Handler, PlainRequest, PlainResponse, Reply, Result } from './service/http.js'
export type { AnimalSet, IdReservation, Store } from './memory/animals.js'
export type { Counts, Created, Held, NoRoom, Refusal } from './store/port.js'
export type { ErrorBody, Int64, NewPet, Pet, PetStatus, Schemas, WithInt64 } from './spec/animals-service.js'
export type { components, operations, paths } from './spec/openapi.generated.js'

/** The animals of `fixtures/default.json`, embedded so that browsers and tests need no file access. */
export const DEFAULT_PETS: readonly Pet[] = loadDefaultPets()

/**
 * Creates a fake animals service: the API over its own in-memory store, started from `pets`
 * (the default fixture unless given). Hand it to `startServer` and to the msw handlers at once and
 * both see the same animals.
 * @example
 * const fake = createFake()
 * afterEach(() => fake.reset())
 */
export function createFake(options: FakeOptions = {}): Fake {
  return assembleFake(
    { pets: DEFAULT_PETS, ...options },
    { now: () => Date.now(), random: () => Math.random(), generate: generateLazily, pause: nextTurn },
  )
}

function loadDefaultPets(): readonly Pet[] {
  const pets = parseFixtureRecords(defaultFixture)
  if (!pets.ok) throw new Error(`fixtures/default.json: ${pets.error}`)
  return pets.value
}
