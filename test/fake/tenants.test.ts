import { expect, it } from 'vitest'
import { createBudget } from '../../src/service/budget.js'
import { createTenants, type Tenant } from '../../src/fake/tenants.js'
import type { Pet } from '../../src/spec/animals-service.js'

const rex: Pet = { id: 1, name: 'Rex', categoryId: 1 }

function tenantOf(result: ReturnType<ReturnType<typeof createTenants>['forToken']>): Tenant {
  if (!result.ok) throw new Error(`expected a store, got ${result.error.message}`)
  return result.value
}

it('drops an isolated store unused for exactly idleMs at the next sweep, and keeps one used more recently', () => {
  let clock = 5_000
  const tenants = createTenants({ fixture: [rex], isolate: true, budget: createBudget(), idleMs: 1_000, now: () => clock })
  const a = tenantOf(tenants.forToken('key-a'))
  clock = 5_500
  const b = tenantOf(tenants.forToken('key-b'))
  expect([a.label, b.label]).toEqual(['tenant-1', 'tenant-2'])
  // 6,000 is both the first sweep after 5,000 and exactly a's idle time; b has been idle for 500.
  clock = 6_000
  expect(tenantOf(tenants.forToken('key-b')).label).toBe('tenant-2')
  expect(tenants.all().map((tenant) => tenant.label)).toEqual(['tenant-2'])
  expect(tenantOf(tenants.forToken('key-a')).label).toBe('tenant-3')
})

it('keeps a store idle for one millisecond less than idleMs', () => {
  let clock = 0
  const tenants = createTenants({ fixture: [rex], isolate: true, budget: createBudget(), idleMs: 1_000, now: () => clock })
  tenantOf(tenants.forToken('key-a'))
  clock = 999
  tenantOf(tenants.forToken('key-b'))
  // A sweep is due (the last was at 0): a, idle for 1,998, goes; b, idle for 999, stays.
  clock = 1_998
  expect(tenantOf(tenants.forToken('key-b')).label).toBe('tenant-2')
  expect(tenants.byLabel('tenant-1')).toBeUndefined()
})

it('refuses a key past the most stores with a message naming the cap and the idle time in minutes', () => {
  const tenants = createTenants({ fixture: [rex], isolate: true, budget: createBudget(), maxTenants: 1, idleMs: 1_800_000, now: () => 0 })
  tenantOf(tenants.forToken('key-a'))
  expect(tenants.forToken('key-b')).toEqual({
    ok: false,
    error: {
      code: 'store_full',
      message: 'The fake holds its maximum of 1 isolated stores; stores unused for 30 minutes are dropped, or reset it.',
    },
  })
})

it('refuses a store the shared budget has no room for, saying how much every store holds together', () => {
  const budget = createBudget({ maxAnimals: 3 })
  const tenants = createTenants({ fixture: [rex, { ...rex, id: 2 }], isolate: true, budget, now: () => 0 })
  tenantOf(tenants.forToken('key-a'))
  expect(tenants.forToken('key-b')).toMatchObject({
    ok: false,
    error: {
      code: 'store_full',
      message: 'No room for another store of 2 animals: every store together holds 2 of at most 3.',
    },
  })
})

it('resets the shared store for any key without isolation, and ignores a key with no store under isolation', () => {
  const shared = createTenants({ fixture: [rex], isolate: false, budget: createBudget(), now: () => 0 })
  shared.shared.store.create({ name: 'Tom', categoryId: 2 })
  expect(shared.shared.store.size).toBe(2)
  shared.resetToken('any-key')
  expect(shared.shared.store.size).toBe(1)

  const isolated = createTenants({ fixture: [rex], isolate: true, budget: createBudget(), now: () => 0 })
  const a = tenantOf(isolated.forToken('key-a'))
  a.store.create({ name: 'Tom', categoryId: 2 })
  expect(() => isolated.resetToken('never-used')).not.toThrow()
  expect(a.store.size).toBe(2)
  isolated.resetToken('key-a')
  expect(a.store.size).toBe(1)
})

it('labels the shared store "shared"', () => {
  const tenants = createTenants({ fixture: [rex], isolate: false, budget: createBudget(), now: () => 0 })
  expect(tenants.shared.label).toBe('shared')
  expect(tenantOf(tenants.forToken('k'))).toBe(tenants.shared)
  expect(tenants.byLabel('shared')).toBe(tenants.shared)
})
