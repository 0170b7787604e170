import { expect, it } from 'vitest'
import { createBudget } from '../../src/service/budget.js'
import { createTestFake } from '../support/core-fake.js'

// The caps the README lists for a fake started without limits; each limit given replaces its own only.
it('gives a fake started without limits the documented caps: 2,000,000 animals, 256 Mi text characters, 32 Mi cached', () => {
  const defaults = { maxAnimals: 2_000_000, maxTextChars: 268_435_456, maxCacheChars: 33_554_432 }
  expect(createTestFake().budget.limits).toEqual(defaults)
  expect(createTestFake({ maxAnimals: 5 }).budget.limits).toEqual({ ...defaults, maxAnimals: 5 })
  expect(createTestFake({ maxTextChars: 6 }).budget.limits).toEqual({ ...defaults, maxTextChars: 6 })
  expect(createTestFake({ maxCacheChars: 7 }).budget.limits).toEqual({ ...defaults, maxCacheChars: 7 })
  expect(createBudget({ maxAnimals: 1 }).limits).toEqual({ ...defaults, maxAnimals: 1 })
})
