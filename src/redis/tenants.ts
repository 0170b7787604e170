import { createHmac } from 'node:crypto'
import { fail, ok, type Result } from '../service/http.js'
import type { ClaimRefusal, Maybe, TenantsPort } from '../store/port.js'
import type { RedisAnimals, RedisLoad } from './animals.js'
import type { RedisCall } from './connection.js'
import { type SharedKeys, setsOf, type StoreKeys } from './keys.js'

/**
 * A key's label: `key-` and 128 bits of HMAC-SHA-256 of the key under the secret. Without the
 * secret a label tells nothing of the key; with it, each replica finds the same store.
 */
export function labelOf(secret: string, token: string): string {
  return `key-${createHmac('sha256', secret).update(token).digest('hex').slice(0, 32)}`
}

// KEYS: the stores in use. ARGV: the label, the time.
const TOUCH = `
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1`

// KEYS: the store's sets (animals, order, each status), last, its characters, every store's
// animals and characters, the stores in use, its data. ARGV: how many sets, the label, the latest last use
// that is dropped.
const DROP = `
local n = tonumber(ARGV[1])
local used = redis.call('ZSCORE', KEYS[n + 5], ARGV[2])
if not used or tonumber(used) > tonumber(ARGV[3]) then return 0 end
local had = redis.call('HLEN', KEYS[1])
local chars = tonumber(redis.call('GET', KEYS[n + 2]) or '0')
for i = 1, n + 2 do redis.call('DEL', KEYS[i]) end
redis.call('DECRBY', KEYS[n + 3], had)
redis.call('DECRBY', KEYS[n + 4], chars)
redis.call('ZREM', KEYS[n + 5], ARGV[2])
redis.call('DEL', KEYS[n + 6])
return 1`

/** Options of `redisTenants`. */
export type RedisTenantsOptions = {
  readonly call: RedisCall
  readonly keysOf: (label: string) => StoreKeys
  readonly shared: SharedKeys
  readonly animals: RedisAnimals
  /**
   * What a key's label is made with (`ANIMALS_MOCK_STORE_SECRET`): every replica needs the same
   * one to find a key's store, and Redis never holds it, so its labels cannot be tried against guessed keys.
   */
  readonly secret: string
  /** The animals each new store starts from. */
  readonly fixture: RedisLoad
  /** A store unused this long, by any replica, is dropped: this replica tells Redis of a use at most every quarter of it. */
  readonly idleMs: number
  /** Forgets a dropped store's rules, latency and journal. */
  readonly forget: (label: string) => Promise<void>
}

/**
 * One store per key in Redis (`serve --isolate --store`), the same for every replica, known by a
 * label that is not the key. Each replica remembers the stores it has seen in use and tells Redis
 * of their use at most every quarter of `idleMs` (and at most every minute): a store in use is
 * never idle long enough to be dropped, and a request asks Redis nothing more. A new key's store
 * is made in one script, once, however many replicas ask at once.
 */
export function redisTenants(options: RedisTenantsOptions): TenantsPort & { forgetUses(): void } {
  const { call, keysOf, shared, animals, secret, fixture } = options
  const checkEveryMs = Math.min(options.idleMs / 4, 60_000)
  // When this replica last told Redis of each store's use; and each key's label, an HMAC made once.
  const told = new Map<string, number>()
  const labels = new Map<string, string>()
  const making = new Map<string, Promise<Result<string, ClaimRefusal>>>()
  const labelFor = (token: string, maxStores: number): string => {
    let label = labels.get(token)
    if (label === undefined) {
      if (labels.size >= maxStores) labels.clear()
      label = labelOf(secret, token)
      labels.set(token, label)
    }
    return label
  }

  async function make(label: string, at: number, maxStores: number): Promise<Result<string, ClaimRefusal>> {
    if ((await call.script(TOUCH, [shared.stores], [label, String(at)])) !== 1) {
      const swapped = await animals.swap(keysOf(label), fixture, { kind: 'adopt', label, at, maxStores })
      if (swapped === 'no_store') return fail({ kind: 'no_store', max: maxStores })
      if (typeof swapped === 'object') return fail(swapped)
    }
    // The map forgets every store past the most there can be, rather than grow with old keys.
    if (told.size >= maxStores) told.clear()
    told.set(label, at)
    return ok(label)
  }

  return {
    claim(token, at, maxStores): Maybe<Result<string, ClaimRefusal>> {
      const label = labelFor(token, maxStores)
      const last = told.get(label)
      if (last !== undefined && at - last < checkEveryMs) return ok(label)
      let pending = making.get(label)
      if (pending === undefined) {
        pending = make(label, at, maxStores).finally(() => making.delete(label))
        making.set(label, pending)
      }
      return pending
    },
    async dropIdle(before) {
      const idle = (await call.command(['ZRANGE', shared.stores, '-inf', String(before), 'BYSCORE'])) as string[]
      for (const label of idle) {
        const keys = keysOf(label)
        const sets = setsOf(keys)
        if ((await call.script(DROP, [...sets, keys.last, keys.chars, shared.animals, shared.chars, shared.stores, keys.data], [String(sets.length), label, String(before)])) === 1) {
          told.delete(label)
          await options.forget(label)
        }
      }
    },
    labels: async () => (await call.command(['ZRANGE', shared.stores, '0', '-1'])) as string[],
    /** Forgets which stores this replica saw in use: the next request of each key asks Redis again (after the data went). */
    forgetUses: () => told.clear(),
  }
}
