import type { JournalEntry, KeptEntry } from '../store/journal-entry.js'
import type { JournalPort } from '../store/port.js'
import { takingTurns } from './turns.js'

/** Which entries to read. */
export type JournalFilter = {
  readonly method?: string
  /** Matches the path with or without the base, e.g. `/pets` or `/v1/pets`. */
  readonly path?: string
  readonly status?: number
  readonly tenant?: string
  /** Only entries with a greater `seq`: a cursor, the `next` of the page before. */
  readonly since?: number
  /**
   * This many at most, oldest first: with `since` the first this many after it (the next page),
   * without it the most recent; all by default.
   */
  readonly limit?: number
}

/** One page of a journal read as JSON, for the control API: see `readJournalPage`. */
export type JournalPage = {
  /** Each entry's JSON text, oldest first. */
  readonly texts: readonly string[]
  /** The `since` that reads on from this page: its last entry's `seq` (the `since` asked, or 0, when it is empty). */
  readonly next: number
  /** Whether entries matching the filter come after this page. */
  readonly more: boolean
  /** How many entries match the filter (`since` included), on this page and past it. */
  readonly total: number
}

/** The most JSON text one page of the journal holds: a read serialises at most this much at once. */
export const JOURNAL_PAGE_CHARS = 1024 * 1024

/** Entries turned into JSON between pauses: an entry of a request with a 15 KB key takes up to half a millisecond. */
export const PAGE_CHUNK = 20

/**
 * The most journal pages read at once in this process, every request together; the others wait
 * their turn. A read holds at most twice its `limit` of entries (each at most the request's 16 KiB
 * of headers and two 4 KiB bodies) and one chunk of the store's, so all of them together hold a
 * bounded share of memory however many are asked at once.
 */
export const JOURNAL_READS_AT_ONCE = 4
const journalTurns = takingTurns(JOURNAL_READS_AT_ONCE)

/** Whether an entry is one `filter` asks for (its `limit` aside). */
export function matches(entry: Pick<KeptEntry, 'method' | 'status' | 'tenant' | 'seq' | 'path' | 'basePath'>, filter: JournalFilter): boolean {
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false
  if (filter.status !== undefined && entry.status !== filter.status) return false
  if (filter.tenant !== undefined && entry.tenant !== filter.tenant) return false
  if (filter.since !== undefined && entry.seq <= filter.since) return false
  if (filter.path !== undefined && entry.path !== filter.path && `${entry.basePath}${entry.path}` !== filter.path) return false
  return true
}

/**
 * What a filter picks from entries read a chunk at a time (`add`), in any order across chunks: the
 * ones its `limit` keeps (with `since` the first, without it the last), oldest first, holding no
 * more than twice `limit` at once however many are read; how many matched (`total`); and the
 * greatest `seq` that matched (`last`).
 */
function select(filter: JournalFilter) {
  const { limit, since } = filter
  let kept: KeptEntry[] = []
  const trim = (): KeptEntry[] => {
    kept.sort((a, b) => a.seq - b.seq)
    if (limit !== undefined && kept.length > limit) kept = since === undefined ? kept.slice(-limit) : kept.slice(0, limit)
    return kept
  }
  const selection = {
    total: 0,
    last: undefined as number | undefined,
    add(chunk: readonly KeptEntry[]): void {
      for (const entry of chunk) {
        if (!matches(entry, filter)) continue
        selection.total += 1
        if (selection.last === undefined || entry.seq > selection.last) selection.last = entry.seq
        kept.push(entry)
        if (limit !== undefined && kept.length >= 2 * limit) trim()
      }
    },
    chosen: trim,
  }
  return selection
}

/** The entries of a journal kept in memory that `filter` picks, oldest first: what `fake.journal()` answers in code. */
export function readJournal(chunks: Iterable<readonly KeptEntry[]>, filter: JournalFilter = {}): JournalEntry[] {
  const selection = select(filter)
  for (const chunk of chunks) selection.add(chunk)
  return selection.chosen().map((entry) => entry.entry())
}

/**
 * A page of a journal as JSON texts, for the control API, one of `JOURNAL_READS_AT_ONCE` at a time:
 * the entries `filter` picks, read a chunk at a time, cut short
 * once they pass `JOURNAL_PAGE_CHARS` (the first always kept), waiting for `pause` after every
 * `PAGE_CHUNK` entries turned into text, so that no read holds the event loop for long.
 */
export function readJournalPage(journal: Pick<JournalPort, 'chunks' | 'size'>, scope: string | undefined, filter: JournalFilter, pause: () => Promise<void>): Promise<JournalPage> {
  return journalTurns(async () => {
    // The most recent `limit` and nothing else asked (a dashboard's poll): they are among each
    // scope's newest `limit`, and how many match is how many are kept, so the rest is not read.
    const newestOnly = filter.limit !== undefined && Object.entries(filter).every(([name, value]) => name === 'limit' || value === undefined)
    if (!newestOnly) return readPage(journal.chunks(scope), filter, pause)
    const [page, total] = await Promise.all([readPage(journal.chunks(scope, filter.limit), filter, pause), journal.size(scope)])
    return { ...page, total }
  })
}

async function readPage(chunks: Iterable<readonly KeptEntry[]> | AsyncIterable<readonly KeptEntry[]>, filter: JournalFilter, pause: () => Promise<void>): Promise<JournalPage> {
  const selection = select(filter)
  for await (const chunk of chunks) selection.add(chunk)
  const chosen = selection.chosen()
  const texts: string[] = []
  let chars = 0
  for (const entry of chosen) {
    if (texts.length > 0 && texts.length % PAGE_CHUNK === 0) await pause()
    const text = entry.text()
    if (texts.length > 0 && chars + text.length > JOURNAL_PAGE_CHARS) break
    texts.push(text)
    chars += text.length
  }
  const last = chosen[texts.length - 1]
  return { texts, next: last?.seq ?? filter.since ?? 0, more: last !== undefined && last.seq !== selection.last, total: selection.total }
}
