import { type App, createApp } from './app.js'
import { createKeyPolicy, type KeyPolicy } from './auth.js'
import type { Pet } from './pets.js'
import { createStore, type Store } from './store.js'

/** Options of `createFake`. */
export type FakeOptions = {
  /** The animals the fake starts from and returns to on `reset()`. */
  readonly pets?: readonly Pet[]
  /** Accepted bearer keys; none means any non-empty token is accepted. */
  readonly keys?: readonly string[]
  /** The most animals the store holds; creating past it answers 507. */
  readonly maxAnimals?: number
}

/** One fake service: the API over its own in-memory store, shared by every transport it is given to. */
export type Fake = App & {
  readonly store: Store
  readonly keys: KeyPolicy
  /** Returns to the starting animals, or to `pets` when given (they become the new start). */
  reset(pets?: readonly Pet[]): void
}

/**
 * Creates a fake service.
 * @example const fake = createFake({ pets: [{ id: 1, name: 'Rex', categoryId: 2 }] })
 */
export function createFakeService(options: FakeOptions = {}): Fake {
  const keys = createKeyPolicy(options.keys ?? [])
  let store = newStore(options.pets ?? [], options.maxAnimals)
  const app = createApp({ keys, storeFor: () => store })
  return {
    handle: app.handle,
    keys,
    get store() {
      return store
    },
    reset(pets) {
      if (pets === undefined) store.reset()
      else store = newStore(pets, options.maxAnimals)
    },
  }
}

function newStore(pets: readonly Pet[], maxAnimals: number | undefined): Store {
  return createStore(maxAnimals === undefined ? { initial: pets } : { initial: pets, maxAnimals })
}
