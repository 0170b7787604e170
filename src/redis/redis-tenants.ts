import { createHmac } from 'node:crypto'
import type { ApiError } from '../service/errors.js'
import { ok, type Result } from '../service/http.js'
import type { RedisCall } from './connection.js'
import { type RedisAnimals, redisAnimals, type RedisLoad, storesKey } from './redis-animals.js'

/** Options of `redisTenants`. */
export type RedisTenantsOptions = {
  readonly call: RedisCall
  readonly prefix: string
  /** The most animals every store together holds (`--max-animals`). */
  readonly maxAnimals: number
  /**
   * What a key's label is made with (`ANIMALS_MOCK_STORE_SECRET`): every replica needs the same
   * one to find a key's store, and Redis never holds it, so its labels cannot be tried against guessed keys.
   */
  readonly secret: string
  /** The animals each new store starts from. */
  readonly fixture: RedisLoad
  /** The most stores in use at once; a new key past it is refused with 507 after idle stores are dropped. */
  readonly maxStores: number
  /** A store unused this long, by any replica, is dropped. */
  readonly idleMs: number
  readonly now: () => number
  /** Called after a store is dropped for being idle, with its label. */
  readonly onDrop?: (label: string) => Promise<void>
}

/** One store per bearer key in Redis (`--isolate`), the same for every replica, known by a label that is not the key. */
export type RedisTenants = {
  /** The store of an accepted key, made from the fixture on its first request through any replica. */
  forToken(token: string): Promise<Result<RedisAnimals, ApiError>>
  /**
   * Every store in use back to the fixture, ids going on after the highest each handed out (so no
   * id answered 201 is handed out again); a store dropped meanwhile stays dropped.
   */
  renewAll(): Promise<Result<void, ApiError>>
  /** A store back to the fixture if it is still in use, ids going on. */
  renew(store: RedisAnimals): Promise<Result<void, ApiError>>
  /** How many stores are in use. */
  count(): Promise<number>
  /** Every store in use, the least recently used first. */
  inUse(): Promise<RedisAnimals[]>
  /** The store in use with this label (`GET /__control/stores` lists them). */
  labelled(label: string): Promise<RedisAnimals | undefined>
}

/**
 * A key's label: `key-` and 128 bits of HMAC-SHA-256 of the key under the secret. Without the
 * secret a label tells nothing of the key; with it, each replica finds the same store.
 */
export function labelOf(secret: string, token: string): string {
  return `key-${createHmac('sha256', secret).update(token).digest('hex').slice(0, 32)}`
}

type Known = { readonly store: RedisAnimals; checkedAt: number }

/**
 * The stores of `serve --isolate --store`. Each replica remembers the stores it has seen in use
 * and tells Redis of their use at most every quarter of `idleMs` (and at most every minute): a
 * store in use is never idle long enough to be dropped, and a request asks Redis nothing more.
 * Every replica drops the stores idle for `idleMs` once a minute at most (the request that finds
 * it due waits for it), each in one script.
 */
export function redisTenants(options: RedisTenantsOptions): RedisTenants {
  const { call, prefix, maxAnimals, secret, fixture, maxStores, idleMs, now } = options
  const stores = storesKey(prefix)
  const checkEveryMs = Math.min(idleMs / 4, 60_000)
  const known = new Map<string, Known>()
  // An HMAC costs a few microseconds: each key's label is made once (as many keys as stores, then afresh).
  const labels = new Map<string, string>()
  const labelFor = (token: string): string => {
    let label = labels.get(token)
    if (label === undefined) {
      if (labels.size >= maxStores) labels.clear()
      label = labelOf(secret, token)
      labels.set(token, label)
    }
    return label
  }
  // Requests of a new key arriving together through this replica make its store once.
  const making = new Map<string, Promise<Result<RedisAnimals, ApiError>>>()
  let nextSweep = 0

  const storeOf = (label: string): RedisAnimals => known.get(label)?.store ?? redisAnimals({ call, prefix, label, maxAnimals })

  async function dropIdle(at: number): Promise<void> {
    nextSweep = at + Math.min(idleMs, 60_000)
    const idle = (await call.command(['ZRANGE', stores, '-inf', String(at - idleMs), 'BYSCORE'])) as string[]
    for (const label of idle) {
      if (await storeOf(label).drop(at - idleMs)) {
        known.delete(label)
        await options.onDrop?.(label)
      }
    }
  }

  async function make(label: string, at: number): Promise<Result<RedisAnimals, ApiError>> {
    if (at >= nextSweep) await dropIdle(at)
    const store = storeOf(label)
    if (!(await store.touch(at))) {
      const adopted = await store.adopt(fixture, at, maxStores)
      if (!adopted.ok) return adopted
    }
    // The map forgets every store past the most there can be, rather than grow with old keys.
    if (known.size >= maxStores) known.clear()
    known.set(label, { store, checkedAt: at })
    return ok(store)
  }

  const tenants: RedisTenants = {
    forToken(token) {
      const label = labelFor(token)
      const at = now()
      const seen = known.get(label)
      if (seen !== undefined && at - seen.checkedAt < checkEveryMs && at < nextSweep) return Promise.resolve(ok(seen.store))
      let pending = making.get(label)
      if (pending === undefined) {
        pending = make(label, at).finally(() => making.delete(label))
        making.set(label, pending)
      }
      return pending
    },
    async renewAll() {
      const inUse = (await call.command(['ZRANGE', stores, '0', '-1'])) as string[]
      for (const label of inUse) {
        const renewed = await storeOf(label).renew(fixture, now())
        if (!renewed.ok) return renewed
      }
      return ok(undefined)
    },
    renew: (store) => store.renew(fixture, now()),
    async count() {
      return Number(await call.command(['ZCARD', stores]))
    },
    async inUse() {
      return ((await call.command(['ZRANGE', stores, '0', '-1'])) as string[]).map(storeOf)
    },
    async labelled(label) {
      return (await call.command(['ZSCORE', stores, label])) === null ? undefined : storeOf(label)
    },
  }
  return tenants
}
