import { expect, it } from 'vitest'
import { budgetFull, createBudget } from '../../src/service/budget.js'
import { FakeInputError, isFakeInputError } from '../../src/service/errors.js'
import { createTestFake } from '../support/core-fake.js'

it('keeps a cached answer up to exactly the cache limit, and takes the room back when let go', () => {
  const budget = createBudget({ maxCacheChars: 10 })
  expect(budget.takeCache(4)).toBe(true)
  expect(budget.takeCache(6)).toBe(true)
  expect(budget.used.cacheChars).toBe(10)
  expect(budget.takeCache(1)).toBe(false)
  expect(budget.used.cacheChars).toBe(10)
  budget.giveCache(4)
  expect(budget.used.cacheChars).toBe(6)
  expect(budget.takeCache(4)).toBe(true)
})

it('takes animals and text up to exactly the limits, and nothing of a refused request', () => {
  const budget = createBudget({ maxAnimals: 2, maxTextChars: 10 })
  expect(budget.take(1, 5)).toBe(true)
  expect(budget.take(1, 6)).toBe(false)
  expect(budget.take(2, 1)).toBe(false)
  expect(budget.used).toMatchObject({ animals: 1, chars: 5 })
  expect(budget.take(1, 5)).toBe(true)
  budget.give(2, 10)
  expect(budget.used).toMatchObject({ animals: 0, chars: 0 })
})

it('says how many animals found no room, one or several', () => {
  const budget = createBudget({ maxAnimals: 1 })
  budget.take(1, 0)
  const several = budgetFull(budget.limits, budget.used, 3)
  expect(several).toEqual({ code: 'store_full', message: 'The fake has no room for 3 more animals: it holds 1 of at most 1 animals (--max-animals, every store together).' })
  expect(budgetFull(budget.limits, budget.used, 1).message).toMatch(/^The fake has no room for 1 more animal: /)
  // Thrown by a control, it is bad input of a kind, not a bug: a 507.
  const thrown = new FakeInputError(several)
  expect([isFakeInputError(thrown), isFakeInputError(new Error(thrown.message)), thrown.name, thrown.status]).toEqual([true, false, 'FakeInputError', 507])
  // Within the animals' count, the characters of their text are what is full.
  expect(budgetFull({ ...budget.limits, maxAnimals: 5, maxTextChars: 9 }, { animals: 1, chars: 8 }, 1).message).toBe("The fake has no room for 1 more animal: the animals' text would pass 9 characters (8 used, every store together).")
})

// The caps the README lists for a fake started without limits; each limit given replaces its own only.
it('gives a fake started without limits the documented caps: 2,000,000 animals, 256 Mi text characters, 32 Mi cached', () => {
  const defaults = { maxAnimals: 2_000_000, maxTextChars: 268_435_456, maxCacheChars: 33_554_432 }
  expect(createTestFake().budget.limits).toEqual(defaults)
  expect(createTestFake({ maxAnimals: 5 }).budget.limits).toEqual({ ...defaults, maxAnimals: 5 })
  expect(createTestFake({ maxTextChars: 6 }).budget.limits).toEqual({ ...defaults, maxTextChars: 6 })
  expect(createTestFake({ maxCacheChars: 7 }).budget.limits).toEqual({ ...defaults, maxCacheChars: 7 })
  expect(createBudget({ maxAnimals: 1 }).limits).toEqual({ ...defaults, maxAnimals: 1 })
})
