import { expect, it } from 'vitest'
import { createStore } from '../../src/service/store.js'
import type { Pet } from '../../src/spec/animals-service.js'

// The duplicate check compares each id with the one before it. The first animal has none before
// it, so an id of 0 in first place is where a check that forgot that would refuse a good set.
it('keeps an animal whose id is 0 when it comes first, and still refuses 0 twice', () => {
  const zero: Pet = { id: 0, name: 'Zero', categoryId: 1 }
  const one: Pet = { id: 1, name: 'One', categoryId: 1 }
  const store = createStore({ initial: [one, zero] })
  expect(store.all()).toEqual([zero, one])
  expect(store.create({ name: 'Two', categoryId: 1 })).toMatchObject({ ok: true, value: { pet: { id: 2 } } })
  expect(() => createStore({ initial: [zero, zero] })).toThrow(/duplicate id 0/)
})
