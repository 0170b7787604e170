import defaultFixture from '../fixtures/default.json' with { type: 'json' }
import { generateLazily } from './seed/generate-lazily.js'
import { assembleFake, type Fake, type FakeOptions } from './fake/assemble-fake.js'
import { parseFixtureRecords } from './fake/fixture.js'
import { nextTurn } from './fake/next-turn.js'
import type { Pet } from './spec/animals-service.js'

export type { Fake, FakeOptions }
// What a Fake's methods take and give, so that its users can name them.
export type { Controls, ExchangeListener, ObservedExchange, SeedOptions, SeedResult, StoreControls } from './fake/assemble-fake.js'
export type { StatusMix } from './fake/seed-request.js'
export type { ForcedRule, ForcedRuleSpec } from './fake/forced.js'
export type { JournalEntry, JournalFilter, JournalPage, JournalResponse } from './fake/journal.js'
export type { Outcome } from './fake/app.js'
export type { LatencySpec } from './fake/latency.js'
export type { KeyPolicy } from './service/auth.js'
export type { Budget, BudgetLimits } from './service/budget.js'
export type { ApiError, ErrorCode } from './service/errors.js'
export type { ConstantFields, DroppedConnection, Fields, Handler, PlainRequest, PlainResponse, Reply, Result } from './service/http.js'
export type { AnimalSet, Created, IdReservation, Store } from './service/store.js'
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
