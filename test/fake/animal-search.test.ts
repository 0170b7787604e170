import { expect, it } from 'vitest'
import { findByName as find, MAX_NAME_SCAN, SEARCH_CHARS, SEARCH_CHUNK } from '../../src/fake/animal-search.js'
import { offsetOfId } from '../../src/memory/animal-index.js'
import { toPetJson } from '../../src/service/pets.js'

const text = (id: number | bigint, name: string) => toPetJson({ id, name, categoryId: 1 })
const noPause = async (): Promise<void> => undefined

/** A search over texts as a store in memory holds them, read a slice at a time as every store is. */
const findByName = (texts: readonly string[], name: string, offset: number, limit: number, pause: () => Promise<void>) =>
  find((from, count) => texts.slice(from, from + count), texts.length, { name, offset, limit }, pause)

it('ends a search whose store holds fewer animals than it was told (gone meanwhile) at the first empty read', async () => {
  let reads = 0
  const empty = (): string[] => {
    reads += 1
    return []
  }
  expect(await find(empty, 3 * SEARCH_CHUNK, { name: 'x', offset: 0, limit: 10 }, noPause)).toEqual({ texts: [], matched: 0, scanned: 0 })
  expect(reads).toBe(1)
})

it('reads at most MAX_NAME_SCAN animals for one search: all of a store exactly that size, the first part of a bigger one', async () => {
  const store = Array.from({ length: MAX_NAME_SCAN }, (_, i) => text(i + 1, i === MAX_NAME_SCAN - 1 ? 'Last' : 'x'))
  expect(await findByName(store, 'last', 0, 10, noPause)).toEqual({ texts: [store.at(-1)], matched: 1, scanned: MAX_NAME_SCAN })
  const bigger = [...store, text(MAX_NAME_SCAN + 1, 'Last')]
  expect(await findByName(bigger, 'last', 0, 10, noPause)).toEqual({ texts: [store.at(-1)], matched: 1, scanned: MAX_NAME_SCAN })
})

it(`pauses after every ${SEARCH_CHUNK} animals read, so other requests get the event loop, and not before the first`, async () => {
  const readAt: number[] = []
  let read = 0
  const store = Array.from({ length: 3 * SEARCH_CHUNK + 1 }, (_, i) => text(i + 1, 'x'))
  const asked: [number, number][] = []
  const slice = (from: number, count: number) => {
    asked.push([from, count])
    read = Math.min(store.length, from + count)
    return store.slice(from, from + count)
  }
  await find(slice, store.length, { name: 'y', offset: 0, limit: 10 }, async () => void readAt.push(read))
  expect(readAt).toEqual([SEARCH_CHUNK, 2 * SEARCH_CHUNK, 3 * SEARCH_CHUNK])
  // No more than a chunk is asked of the store at once.
  expect(asked).toEqual([[0, SEARCH_CHUNK], [SEARCH_CHUNK, SEARCH_CHUNK], [2 * SEARCH_CHUNK, SEARCH_CHUNK], [3 * SEARCH_CHUNK, SEARCH_CHUNK]])
})

it(`asks for at most ${SEARCH_CHARS} characters at a time, and reads on from wherever a shorter read stopped`, async () => {
  // Names of 4,000 characters: a chunk of them would be 20 MB; a store over Redis answers fewer.
  const store = Array.from({ length: 2 * SEARCH_CHUNK }, (_, i) => text(i + 1, `${i === 2 * SEARCH_CHUNK - 1 ? 'Last' : 'x'}${'y'.repeat(4000)}`))
  const asked: [number, number, number][] = []
  const bounded = (from: number, count: number, maxChars: number) => {
    asked.push([from, count, maxChars])
    const texts: string[] = []
    let chars = 0
    for (const each of store.slice(from, from + count)) {
      texts.push(each)
      chars += each.length
      if (chars >= maxChars) break
    }
    return texts
  }
  const found = await find(bounded, store.length, { name: 'last', offset: 0, limit: 5 }, noPause)
  expect(found).toEqual({ texts: [store.at(-1)], matched: 1, scanned: store.length })
  const perRead = Math.ceil(SEARCH_CHARS / (store[0] as string).length)
  expect(asked.slice(0, 3)).toEqual([[0, SEARCH_CHUNK, SEARCH_CHARS], [perRead, SEARCH_CHUNK, SEARCH_CHARS], [2 * perRead, SEARCH_CHUNK, SEARCH_CHARS]])
  expect(asked).toHaveLength(Math.ceil(store.length / perRead))
})

it('counts every match read while giving only the page asked for', async () => {
  const store = ['Ann', 'Anna', 'Bob', 'Joanne'].map((name, i) => text(i + 1, name))
  expect(await findByName(store, 'ann', 1, 1, noPause)).toEqual({ texts: [store[1]], matched: 3, scanned: 4 })
  expect(await findByName(store, 'ann', 3, 5, noPause)).toEqual({ texts: [], matched: 3, scanned: 4 })
})

it('matches the name alone, as written: escaped characters read, and never a word of the other fields', async () => {
  const store = [text(1, 'Zoë "Zed"'), text(2, 'Rex'), text(3, 'Back\\slash, "categoryId":'), toPetJson({ id: 4, name: 'Kit', categoryId: 7, status: 'available' })]
  expect((await findByName(store, 'ë "z', 0, 10, noPause)).texts).toEqual([store[0]])
  expect((await findByName(store, '\\slash, "CATEGORYID":', 0, 10, noPause)).texts).toEqual([store[2]])
  // "id", "name", "categoryId" and "available" are in every text, in none of these names.
  const plain = [store[0], store[1], store[3]] as string[]
  for (const word of ['id', 'name', 'categ', 'avail', '7']) expect((await findByName(plain, word, 0, 10, noPause)).matched, word).toBe(0)
  // Nor the quotes around it: a search ending in one finds no name that merely ends the text.
  expect((await findByName(plain, 'x"', 0, 10, noPause)).matched).toBe(0)
  expect((await findByName(plain, '"r', 0, 10, noPause)).matched).toBe(0)
})

it('finds where an id would be in a list ordered by id, past 2^53 included', () => {
  const store = [1, 3, 9007199254740993n].map((id) => text(id, 'a'))
  expect([0, 1, 2, 3, 4, 9007199254740993n, 9007199254740994n].map((id) => offsetOfId(store, id))).toEqual([0, 0, 1, 1, 2, 2, 3])
  expect(offsetOfId([], 5)).toBe(0)
})
