import { createKeyPolicy, type KeyPolicy } from '../service/auth.js'
import type { BudgetLimits } from '../service/budget.js'
import type { AnimalGenerator } from '../seed/status-mix.js'
import type { StorePort } from '../store/port.js'
import { EVERY_STORE, type Latency, NO_LATENCY, SHARED_STORE } from '../store/scope.js'
import { type ControlOps, createControls } from './controls.js'
import { createPipeline, type Pipeline } from './pipeline.js'
import { createTenancy, type Tenancy } from './tenancy.js'

/** How one fake behaves, whatever keeps its state. */
export type FakeCoreOptions = {
  /** Accepted bearer keys; none means any non-empty token is accepted. */
  readonly keys: readonly string[]
  /** Each bearer key gets its own store, made from the fixture on its first request. */
  readonly isolate: boolean
  /** The most stores of keys at once (`TENANT_LIMITS` unless given). */
  readonly maxStores?: number
  /** A store of a key unused this long is dropped. */
  readonly idleMs?: number
  /** Whether `Prefer: code=NNN` chooses a request's answer. */
  readonly prefer: boolean
  /** The latency every answer starts with, and returns to on reset. */
  readonly latency?: Latency
  readonly limits: BudgetLimits
  /** Over a store that answers later: the longest a request waits for it, every step together (`--store-timeout`). */
  readonly deadlineMs?: number
}

/** What the core cannot do for itself: the clock, randomness, Faker, and a pause between slices of long work. */
export type FakeEnvironment = {
  readonly now: () => number
  /** A number in [0, 1). */
  readonly random: () => number
  readonly generate: AnimalGenerator
  /**
   * Lets other work run (the next turn of the event loop): long seeds, snapshot loads, searches and
   * journal pages pause between chunks, so the API keeps answering meanwhile.
   */
  readonly pause: () => Promise<void>
}

/** One fake over one store port: its API, its controls, and which store a key works on. */
export type FakeCore = Pipeline & {
  readonly store: StorePort
  readonly keys: KeyPolicy
  readonly isolated: boolean
  readonly limits: BudgetLimits
  readonly tenancy: Tenancy
  readonly controls: ControlOps
}

/**
 * Puts one fake together over a store port: the request pipeline, the policy of stores per key,
 * and the controls. Memory and Redis hand in their adapters; nothing here knows which.
 */
export function createFakeCore(store: StorePort, options: FakeCoreOptions, environment: FakeEnvironment): FakeCore {
  const keys = createKeyPolicy(options.keys)
  const every = options.isolate ? EVERY_STORE : SHARED_STORE
  const latency = options.latency ?? NO_LATENCY
  const { limits } = options
  const { now, random } = environment
  const tenancy = createTenancy({ tenants: store.tenants, isolate: options.isolate, limits, now, ...(options.maxStores === undefined ? {} : { maxStores: options.maxStores }), ...(options.idleMs === undefined ? {} : { idleMs: options.idleMs }) })
  const deadline = options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }
  const pipeline = createPipeline({ store, keys, storeFor: tenancy.storeFor, every, prefer: options.prefer, latency, limits, now, random, ...deadline })
  const controls = createControls({ store, every, limits, latency, random, generate: environment.generate, pause: environment.pause })
  return { handle: pipeline.handle, observe: pipeline.observe, store, keys, isolated: options.isolate, limits, tenancy, controls }
}
