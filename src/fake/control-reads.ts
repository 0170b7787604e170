import type { Int64, PetStatus } from '../spec/animals-service.js'
import { andThen, type Counts, type Maybe, type StorePort } from '../store/port.js'
import { findByName } from './animal-search.js'
import { sizeOf, type Target } from './controls.js'
import { joinFixture } from './fixture.js'
import { takingTurns } from './turns.js'

/**
 * The most searches by name that read a store at once, every request together; the others wait
 * their turn. Each holds at most `SEARCH_CHARS` of animals read and its page, so all of them
 * together hold a bounded share of memory however many are asked at once.
 */
export const SEARCHES_AT_ONCE = 4

/**
 * A page of a store: from `offset`, or from the first animal whose id is `from` or above; of one
 * status; or of the animals whose name holds `name` (ignoring case).
 */
export type PageQuery = { readonly offset: number; readonly limit: number; readonly status?: PetStatus; readonly from?: Int64; readonly name?: string }

/** A page of a store's animals: where it stands, their JSON texts, and the store's counts. */
export type AnimalsPage = { readonly summary: Record<string, number | boolean>; readonly texts: readonly string[]; readonly counts: Counts }

/**
 * What the control API reads of a store port, and only it (a fake in a page has no use for them):
 * its animals page by page or by name, a snapshot's text, the stores in use, a summary. Long reads
 * go a chunk at a time, waiting for `pause` between.
 */
export function createControlReads(store: StorePort, pause: () => Promise<void>) {
  const size = (label: string): Maybe<number> => andThen(store.animals.counts(label), sizeOf)
  const searchInTurn = takingTurns(SEARCHES_AT_ONCE)
  return {
    size,
    /** Every animal, ascending id, as a fixture's text. */
    snapshot: (label: string): Maybe<string> => andThen(size(label), (count) => andThen(store.animals.slice(label, undefined, 0, count), joinFixture)),
    async animalsPage(label: string, query: PageQuery): Promise<AnimalsPage> {
      const counts = await store.animals.counts(label)
      const total = query.status === undefined ? sizeOf(counts) : counts[query.status]
      if (query.name !== undefined) {
        const { name } = query
        const read = (offset: number, count: number, maxChars: number) => store.animals.slice(label, query.status, offset, count, maxChars)
        const found = await searchInTurn(() => findByName(read, total, { name, offset: query.offset, limit: query.limit }, pause))
        return { summary: { total: found.matched, offset: query.offset, scanned: found.scanned, complete: found.scanned === total }, texts: found.texts, counts }
      }
      const offset = query.from === undefined ? query.offset : await store.animals.offsetOf(label, query.status, query.from)
      return { summary: { total, offset }, texts: await store.animals.slice(label, query.status, offset, query.limit), counts }
    },
    /** Every store in use, with how many animals of each status it holds. */
    async stores(): Promise<{ label: string; animals: number; counts: Counts }[]> {
      const labels = await store.tenants.labels()
      return Promise.all(labels.map(async (label) => ({ label, ...(await countsOf(store, label)) })))
    },
    /** What a target holds: its animals (`null` for every store), its journal's entries and its forced rules. */
    async summary(target: Target): Promise<{ animals: number | null; journal: number; forcedRules: number }> {
      const [animals, journal, rules] = await Promise.all([target === undefined ? null : size(target), store.journal.size(target), store.rules.list(target)])
      return { animals, journal, forcedRules: rules.length }
    },
  }
}

async function countsOf(store: StorePort, label: string): Promise<{ animals: number; counts: Counts }> {
  const counts = await store.animals.counts(label)
  return { animals: sizeOf(counts), counts }
}
