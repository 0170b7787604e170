import { expect, it } from 'vitest'
import { findByName, MAX_NAME_SCAN, offsetOfId } from '../../src/fake/animal-search.js'

const text = (id: number | bigint, name: string) => `{"id":${id},"name":${JSON.stringify(name)},"categoryId":1}`

it('reads at most MAX_NAME_SCAN animals for one search: all of a store exactly that size, the first part of a bigger one', () => {
  const store = Array.from({ length: MAX_NAME_SCAN }, (_, i) => text(i + 1, i === MAX_NAME_SCAN - 1 ? 'Last' : 'x'))
  expect(findByName(store, 'last', 0, 10)).toEqual({ texts: [store.at(-1)], matched: 1, scanned: MAX_NAME_SCAN })
  const bigger = [...store, text(MAX_NAME_SCAN + 1, 'Last')]
  expect(findByName(bigger, 'last', 0, 10)).toEqual({ texts: [store.at(-1)], matched: 1, scanned: MAX_NAME_SCAN })
})

it('counts every match read while giving only the page asked for', () => {
  const store = ['Ann', 'Anna', 'Bob', 'Joanne'].map((name, i) => text(i + 1, name))
  expect(findByName(store, 'ann', 1, 1)).toEqual({ texts: [store[1]], matched: 3, scanned: 4 })
  expect(findByName(store, 'ann', 3, 5)).toEqual({ texts: [], matched: 3, scanned: 4 })
})

it('finds where an id would be in a list ordered by id, past 2^53 included', () => {
  const store = [1, 3, 9007199254740993n].map((id) => text(id, 'a'))
  expect([0, 1, 2, 3, 4, 9007199254740993n, 9007199254740994n].map((id) => offsetOfId(store, id))).toEqual([0, 0, 1, 1, 2, 2, 3])
  expect(offsetOfId([], 5)).toBe(0)
})
