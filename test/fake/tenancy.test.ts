import { expect, it } from 'vitest'
import { createTenancy, type Tenancy } from '../../src/fake/tenancy.js'
import { createMemoryStore } from '../../src/memory/memory-store.js'
import { createBudget } from '../../src/service/budget.js'
import type { Result } from '../../src/service/http.js'
import type { ApiError } from '../../src/service/errors.js'
import type { Pet } from '../../src/spec/animals-service.js'
import { settled } from '../../src/store/port.js'

const rex: Pet = { id: 1, name: 'Rex', categoryId: 1 }

/** The policy of stores per key over a store in memory, on a clock the test moves. */
function tenancyOver(options: { readonly isolate?: boolean; readonly fixture?: readonly Pet[]; readonly maxAnimals?: number; readonly maxStores?: number; readonly idleMs?: number }, clock: { now: number }) {
  const budget = createBudget(options.maxAnimals === undefined ? {} : { maxAnimals: options.maxAnimals })
  const store = createMemoryStore({ fixture: options.fixture ?? [rex], isolate: options.isolate ?? true, budget })
  const tenancy = createTenancy({ tenants: store.tenants, isolate: options.isolate ?? true, limits: budget.limits, now: () => clock.now, ...(options.maxStores === undefined ? {} : { maxStores: options.maxStores }), ...(options.idleMs === undefined ? {} : { idleMs: options.idleMs }) })
  return { store, tenancy }
}

const labelOf = (tenancy: Tenancy, token: string): string => {
  const result: Result<string, ApiError> = settled(tenancy.storeFor(token))
  if (!result.ok) throw new Error(`expected a store, got ${result.error.message}`)
  return result.value
}

it('drops a store of a key unused for exactly idleMs at the next sweep, and keeps one used more recently', () => {
  const clock = { now: 5_000 }
  const { store, tenancy } = tenancyOver({ idleMs: 1_000 }, clock)
  expect(labelOf(tenancy, 'key-a')).toBe('tenant-1')
  clock.now = 5_500
  expect(labelOf(tenancy, 'key-b')).toBe('tenant-2')
  // 6,000 is both the first sweep after 5,000 and exactly a's idle time; b has been idle for 500.
  clock.now = 6_000
  expect(labelOf(tenancy, 'key-b')).toBe('tenant-2')
  expect(settled(store.tenants.labels())).toEqual(['tenant-2'])
  expect(labelOf(tenancy, 'key-a')).toBe('tenant-3')
})

it('keeps a store idle for one millisecond less than idleMs, and sweeps at most once per idle time', () => {
  const clock = { now: 0 }
  const { store, tenancy } = tenancyOver({ idleMs: 1_000 }, clock)
  labelOf(tenancy, 'key-a')
  clock.now = 999
  labelOf(tenancy, 'key-b')
  // A sweep is due (the last was at 0): a, idle for 1,998, goes; b, idle for 999, stays.
  clock.now = 1_998
  expect(labelOf(tenancy, 'key-b')).toBe('tenant-2')
  expect(store.storeOf('tenant-1')).toBeUndefined()
  // The next sweep is due at 2,998: b, idle since 1,998 for exactly 1,000 at 2,997 + 1, goes only then.
  clock.now = 2_997
  labelOf(tenancy, 'key-c')
  expect(store.storeOf('tenant-2')).toBeDefined()
  clock.now = 2_998
  labelOf(tenancy, 'key-c')
  expect(store.storeOf('tenant-2')).toBeUndefined()
})

it('refuses a key past the most stores with a message naming the cap and the idle time in minutes', () => {
  const { tenancy } = tenancyOver({ maxStores: 1, idleMs: 1_800_000 }, { now: 0 })
  labelOf(tenancy, 'key-a')
  expect(settled(tenancy.storeFor('key-b'))).toEqual({
    ok: false,
    error: { code: 'store_full', message: 'The fake holds its maximum of 1 isolated stores; stores unused for 30 minutes are dropped, or reset it.' },
  })
})

it('refuses a store the shared budget has no room for, saying how much every store holds together', () => {
  const { tenancy } = tenancyOver({ fixture: [rex, { ...rex, id: 2 }], maxAnimals: 3 }, { now: 0 })
  labelOf(tenancy, 'key-a')
  expect(settled(tenancy.storeFor('key-b'))).toEqual({
    ok: false,
    error: { code: 'store_full', message: 'No room for another store of 2 animals: every store together holds 2 of at most 3.' },
  })
})

it('gives every key the shared store without isolation', () => {
  const { store, tenancy } = tenancyOver({ isolate: false }, { now: 0 })
  expect([labelOf(tenancy, 'k'), labelOf(tenancy, 'other')]).toEqual(['shared', 'shared'])
  expect(settled(store.tenants.labels())).toEqual(['shared'])
  expect(tenancy.isolated).toBe(false)
})
