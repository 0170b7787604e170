import { describe, expect, it } from 'vitest'
import { keptLists } from '../../src/redis/kept-lists.js'
import { DEFAULT_BUDGET_LIMITS } from '../../src/service/budget.js'

// What a replica over Redis keeps of list answers: within the budget's cache room and its most stores.
describe("a replica's kept list answers", () => {
  const limits = (maxCacheChars: number) => ({ ...DEFAULT_BUDGET_LIMITS, maxCacheChars })
  // An answer of `chars` characters in all: the texts' and the brackets'.
  const keep = (lists: ReturnType<typeof keptLists>, label: string, chars: number) => lists.of(label).json(['x'.repeat(chars - 2)], 1, undefined, 'r')

  it('keeps each store apart, forgetting the store used longest ago past the most stores', () => {
    const lists = keptLists(limits(1000), 2)
    keep(lists, 'a', 5)
    keep(lists, 'b', 5)
    expect(lists.of('a').kept(1, undefined)).toEqual({ json: '[xxx]', revision: 'r' })
    expect(lists.of('a').kept(1, 'sold')).toBeUndefined()
    // 'a' was used after 'b': a third store makes 'b' go.
    keep(lists, 'c', 5)
    expect(lists.of('a').kept(1, undefined)?.json).toBe('[xxx]')
    expect(lists.of('c').kept(1, undefined)?.json).toBe('[xxx]')
    expect(lists.of('b').kept(1, undefined)).toBeUndefined()
  })

  it("makes room by forgetting other stores' answers, oldest use first, and only as far as needed", () => {
    const lists = keptLists(limits(15), 10)
    keep(lists, 'a', 5)
    keep(lists, 'b', 5)
    // Exactly at the cache room: nothing goes.
    lists.makeRoom('c', 5)
    expect([lists.of('a').kept(1, undefined), lists.of('b').kept(1, undefined)].map((kept) => kept?.json)).toEqual(['[xxx]', '[xxx]'])
    // One past it: the store used longest ago ('a', before 'b' was read) goes, and no more.
    lists.makeRoom('c', 6)
    expect(lists.of('b').kept(1, undefined)?.json).toBe('[xxx]')
    expect(lists.of('a').kept(1, undefined)).toBeUndefined()
    // The store asking keeps its own; the room freed is taken again.
    keep(lists, 'c', 10)
    lists.makeRoom('c', 100)
    expect(lists.of('c').kept(1, undefined)?.json).toBe(`[${'x'.repeat(8)}]`)
    expect(lists.of('b').kept(1, undefined)).toBeUndefined()
    keep(lists, 'a', 5)
    expect(lists.of('a').kept(1, undefined)?.json).toBe('[xxx]')
  })

  it('keeps no answer past the cache room, and forgets every answer when cleared', () => {
    const lists = keptLists(limits(4), 10)
    expect(keep(lists, 'a', 5)).toBe('[xxx]')
    expect(lists.of('a').kept(1, undefined)).toBeUndefined()
    keep(lists, 'b', 4)
    lists.clear()
    expect(lists.of('b').kept(1, undefined)).toBeUndefined()
    // The room given back: an answer as long as the room fits again.
    keep(lists, 'a', 4)
    expect(lists.of('a').kept(1, undefined)?.json).toBe('[xx]')
  })
})
