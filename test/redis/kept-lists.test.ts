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

  it("makes room for an answer by forgetting other stores' answers, oldest use first, and only as far as needed", () => {
    const lists = keptLists(limits(15), 10)
    const held = (...labels: string[]) => labels.map((label) => lists.of(label).kept(1, undefined)?.json)
    keep(lists, 'a', 5)
    keep(lists, 'b', 5)
    // Exactly at the cache room: nothing goes.
    keep(lists, 'c', 5)
    expect(held('a', 'b', 'c')).toEqual(['[xxx]', '[xxx]', '[xxx]'])
    // One past it: the store used longest ago goes, and no other.
    keep(lists, 'd', 3)
    expect(held('b', 'c', 'd')).toEqual(['[xxx]', '[xxx]', '[x]'])
    expect(held('a')).toEqual([undefined])
    // 10 more for 'b': 'c' and 'd' go (oldest first), 'b' keeps its own.
    expect(lists.of('b').json(['y'.repeat(8)], 2, undefined, 'r')).toBe(`[${'y'.repeat(8)}]`)
    expect(lists.of('b').kept(2, undefined)?.json).toBe(`[${'y'.repeat(8)}]`)
    expect(held('c', 'd', 'b')).toEqual([undefined, undefined, '[xxx]'])
    // An answer past the whole room is not kept, and takes nothing of the store's own.
    lists.of('b').json(['z'.repeat(20)], 3, undefined, 'r')
    expect(lists.of('b').kept(3, undefined)).toBeUndefined()
    expect(held('b')).toEqual(['[xxx]'])
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
