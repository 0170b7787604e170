// The one fake over either adapter of the store port, as a test builds it: in memory (what
// `createFake` makes), or over a Redis the test started (what `serve --store` makes), each with its
// control API. One table of cases runs over both.
import { coreOf } from '../../src/fake/assemble-fake.js'
import { type Control, createControl } from '../../src/fake/control.js'
import { createFakeCore, type FakeCore } from '../../src/fake/fake-core.js'
import { parseLatency } from '../../src/fake/latency.js'
import type { RedisCall, RedisConnection } from '../../src/redis/connection.js'
import { createRedisStore, type RedisStore } from '../../src/redis/redis-store.js'
import { createPetSource } from '../../src/seed/generate-pets.js'
import { type BudgetLimits, DEFAULT_BUDGET_LIMITS } from '../../src/service/budget.js'
import { orThrow } from '../../src/service/errors.js'
import type { Pet } from '../../src/spec/animals-service.js'
import type { LatencySpec } from '../../src/fake/latency.js'
import { createTestFake } from './core-fake.js'

/** How a test wants its fake. */
export type FakeSetup = {
  readonly pets: readonly Pet[]
  readonly keys?: readonly string[]
  readonly isolate?: boolean
  readonly limits?: Partial<BudgetLimits>
  readonly latency?: LatencySpec
  readonly journalSize?: number
  readonly idleMs?: number
  readonly maxStores?: number
  readonly prefer?: boolean
  readonly random?: () => number
  readonly now?: () => number
  /** Over Redis under isolation, the secret of the stores' labels (`TEST_SECRET` unless given). */
  readonly secret?: string
}

/** One replica of a fake: its API and its control API over the same store. */
export type Replica = { readonly core: FakeCore; readonly control: Control }

/** A secret for the labels of stores of keys in Redis, as `ANIMALS_MOCK_STORE_SECRET` gives it. */
export const TEST_SECRET = 'test-secret-of-at-least-thirty-two-characters'

/** The fake in memory: one replica (there is only one process). */
export function memoryReplica(setup: FakeSetup): Replica {
  const fake = createTestFake({
    pets: setup.pets,
    ...(setup.keys === undefined ? {} : { keys: setup.keys }),
    ...(setup.isolate === undefined ? {} : { isolate: setup.isolate }),
    ...(setup.limits?.maxAnimals === undefined ? {} : { maxAnimals: setup.limits.maxAnimals }),
    ...(setup.limits?.maxTextChars === undefined ? {} : { maxTextChars: setup.limits.maxTextChars }),
    ...(setup.latency === undefined ? {} : { latency: setup.latency }),
    ...(setup.journalSize === undefined ? {} : { journalSize: setup.journalSize }),
    ...(setup.idleMs === undefined ? {} : { storeIdleMs: setup.idleMs }),
    ...(setup.maxStores === undefined ? {} : { maxTenants: setup.maxStores }),
    ...(setup.prefer === undefined ? {} : { prefer: setup.prefer }),
  })
  const core = coreOf(fake)
  return { core, control: createControl({ core }) }
}

/**
 * A replica of the fake over Redis (`prefix` keeps tests apart on one Redis): the store port's
 * Redis adapter and the one fake over it, as `serve --store` wires them; the store started (the
 * fixture loaded by the first replica of a prefix).
 */
export async function redisReplica(connection: RedisConnection, prefix: string, setup: FakeSetup, reads?: RedisCall): Promise<Replica & { readonly store: RedisStore }> {
  const limits = { ...DEFAULT_BUDGET_LIMITS, ...setup.limits }
  const now = setup.now ?? (() => Date.UTC(2026, 0, 1))
  const isolate = setup.isolate === true ? { secret: setup.secret ?? TEST_SECRET, idleMs: setup.idleMs ?? 30 * 60_000 } : undefined
  const store = await createRedisStore({ call: connection, ...(reads === undefined ? {} : { reads }), prefix, fixture: setup.pets, limits, journalSize: setup.journalSize ?? 1000, maxScopes: 1001, now, ...(isolate === undefined ? {} : { isolate }) })
  const latency = setup.latency === undefined ? undefined : orThrow(parseLatency(setup.latency))
  const core = createFakeCore(
    store,
    { keys: setup.keys ?? [], isolate: isolate !== undefined, prefer: setup.prefer ?? true, limits, ...(latency === undefined ? {} : { latency }), ...(setup.idleMs === undefined ? {} : { idleMs: setup.idleMs }), ...(setup.maxStores === undefined ? {} : { maxStores: setup.maxStores }) },
    { now, random: setup.random ?? (() => 0.5), generate: async (options) => createPetSource(options), pause: () => new Promise((resolve) => setTimeout(resolve, 0)) },
  )
  const started = await store.start()
  if (!started.ok) throw new Error(`the fixture does not fit: ${JSON.stringify(started.error)}`)
  return { core, control: createControl({ core }), store }
}
