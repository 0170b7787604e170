import type { Fields } from '../service/http.js'
import { BODY_LIMIT, type EntryParts, JOURNAL_BYTES_IN_ALL, JOURNAL_SIZE, type JournalEntry, type JournalRecord, type KeptEntry, toEntry } from '../store/journal-entry.js'
import type { JournalPort } from '../store/port.js'

/**
 * The characters of answers the journals hold by reference, every entry of every store together.
 * An answer is usually a string the fake keeps anyway (a cached list, a stored animal), so holding
 * it costs nothing and cutting a copy would cost more than answering; past this total, long
 * answers are cut into copies, so a thousand long answers cannot hold much memory.
 */
export const SHARED_ANSWER_CHARS = 16 * 1024 * 1024

/** What an entry costs beyond its texts in `JOURNAL_BYTES_IN_ALL`: the record itself, about 20 fields. */
export const ENTRY_BYTES = 256

/**
 * What the journals of every scope keep together: the order of requests across scopes (`seq`), the
 * characters of answers held by reference, and the bytes kept (each entry's path, query, headers,
 * body and answer copy, plus `ENTRY_BYTES`), which `JOURNAL_BYTES_IN_ALL` bounds.
 */
export type JournalTotals = { seq: number; sharedChars: number; bytes: number }

// What is kept per request: references and primitives only, in one fixed shape, so that recording
// costs next to nothing on the hot path; everything shown is derived when it is read.
type Stored = EntryParts &
  KeptEntry & {
    /** How many characters of another's string this entry holds: counted in `SHARED_ANSWER_CHARS`. */
    readonly sharedChars: number
    /** What the entry counts for in `JOURNAL_BYTES_IN_ALL`. */
    readonly bytes: number
  }

// A kept entry's `entry` and `text`, shared by every entry.
function shownEntry(this: Stored): JournalEntry {
  return toEntry(this)
}

function shownText(this: Stored): string {
  return JSON.stringify(toEntry(this))
}

/** The journal port in memory, and what a store's drop asks of it. */
export type MemoryJournal = Omit<JournalPort, 'chunks' | 'size'> & {
  /** Every entry: in memory, reading the newest alone would save nothing. */
  chunks(scope: string | undefined): Iterable<readonly KeptEntry[]>
  size(scope: string | undefined): number
  /** Forgets a scope whose store was dropped, and its room. */
  drop(scope: string): void
  /** What every scope's journal keeps together. */
  totals(): Readonly<JournalTotals>
}

/** One scope's journal: its last requests, and the bytes they count for. */
type ScopeJournal = { readonly ring: Ring<Stored>; bytes: number }

/**
 * Each scope's journal in this process: its last `size` requests (`JOURNAL_SIZE`; a size that is
 * not a whole number keeps its whole part, 0 none), `maxBytes` every one together: past it, the
 * journal keeping the most forgets its oldest. Recording stores references and copies at most
 * `BODY_LIMIT` bytes; headers and query are redacted only when entries are read.
 */
export function createMemoryJournal(size = JOURNAL_SIZE, maxBytes = JOURNAL_BYTES_IN_ALL): MemoryJournal {
  const capacity = Math.max(0, Math.floor(size))
  const totals: JournalTotals = { seq: 0, sharedChars: 0, bytes: 0 }
  const store = storeEntries(totals)
  const journals = new Map<string, ScopeJournal>()
  const journalOf = (scope: string): ScopeJournal => {
    let journal = journals.get(scope)
    if (journal === undefined) {
      journal = { ring: createRing(capacity), bytes: 0 }
      journals.set(scope, journal)
    }
    return journal
  }
  const named = (scope: string | undefined): ScopeJournal[] => (scope === undefined ? [...journals.values()] : [journalOf(scope)])
  const forget = (journal: ScopeJournal, entry: Stored | undefined): void => {
    if (entry === undefined) return
    journal.bytes -= entry.bytes
    totals.bytes -= entry.bytes
    totals.sharedChars -= entry.sharedChars
  }
  const clear = (journal: ScopeJournal): void => {
    for (const entry of journal.ring.items()) forget(journal, entry)
    journal.ring.clear()
  }
  return {
    record(scope, record) {
      const journal = journalOf(scope)
      const stored = store(record)
      forget(journal, journal.ring.push(stored))
      journal.bytes += stored.bytes
      totals.bytes += stored.bytes
      totals.sharedChars += stored.sharedChars
      while (totals.bytes > maxBytes) {
        const heaviest = heaviestOf(journals.values())
        forget(heaviest, heaviest.ring.shift())
      }
    },
    chunks: (scope) => named(scope).map((journal) => journal.ring.items()),
    size: (scope) => named(scope).reduce((sum, journal) => sum + journal.ring.length, 0),
    clear(scope) {
      for (const journal of named(scope)) clear(journal)
    },
    drop(scope) {
      const journal = journals.get(scope)
      if (journal !== undefined) clear(journal)
      journals.delete(scope)
    },
    totals: () => totals,
  }
}

/** Turns what the fake hands over into what a journal keeps, numbered in the order of every scope's. */
function storeEntries(pool: JournalTotals): (record: JournalRecord) => Stored {
  // A busy fake records thousands of requests between two garbage collections, and each request
  // comes with its own copies of a path, a query and headers that are mostly the same as a moment
  // ago. Kept as they come, every one would be copied and promoted by the collector, which costs
  // more than answering the request; kept as the equal value seen just before, they die young.
  const paths = createRecentValues<string>(sameValue)
  const searches = createRecentValues<string>(sameValue)
  const headerSets = createRecentValues<Fields>(sameFields)
  const bodies = createRecentValues<Uint8Array>(sameBytes)
  return ({ request, receivedAt, tenant, status, forced, outcome, delayMs, response }) => {
    pool.seq += 1
    const { body } = request
    const answer = response?.body
    const shared = answer !== undefined && (answer.length <= BODY_LIMIT || pool.sharedChars + answer.length <= SHARED_ANSWER_CHARS)
    const path = paths.intern(request.path)
    const search = searches.intern(request.search)
    const headers = headerSets.intern(request.headers)
    const keptBody = body === undefined ? undefined : bodies.intern(body.subarray(0, BODY_LIMIT), copyBytes)
    const responseBody = shared ? answer : copiedStart(answer)
    return {
      seq: pool.seq,
      receivedAt,
      tenant,
      method: request.method,
      basePath: request.basePath,
      path,
      search,
      status,
      forced,
      outcome,
      delayMs,
      headers,
      body: keptBody,
      bodyCut: (body?.length ?? 0) > BODY_LIMIT,
      responseHeaders: response?.headers,
      responseBody,
      responseCut: (answer?.length ?? 0) > BODY_LIMIT,
      sharedChars: shared ? answer.length : 0,
      bytes: ENTRY_BYTES + path.length + search.length + fieldsLength(headers) + (keptBody?.length ?? 0) + (typeof responseBody === 'string' ? 0 : (responseBody?.length ?? 0)),
      entry: shownEntry,
      text: shownText,
    }
  }
}

/** The last `capacity` items, oldest first. */
type Ring<T> = {
  /** How many items it holds. */
  readonly length: number
  /** Adds `item` as the newest; gives back the oldest when it made room for it. */
  push(item: T): T | undefined
  /** Takes the oldest out. */
  shift(): T | undefined
  items(): T[]
  clear(): void
}

// Adding and forgetting the oldest cost the same however full the ring is (an array's shift would
// move every entry on each request once the journal is full).
function createRing<T>(capacity: number): Ring<T> {
  const slots: (T | undefined)[] = []
  let head = 0
  let count = 0
  const ring: Ring<T> = {
    get length() {
      return count
    },
    push(item) {
      if (capacity === 0) return item
      const dropped = count === capacity ? ring.shift() : undefined
      slots[(head + count) % capacity] = item
      count += 1
      return dropped
    },
    shift() {
      if (count === 0) return undefined
      const oldest = slots[head]
      slots[head] = undefined
      head = (head + 1) % capacity
      count -= 1
      return oldest
    },
    items: () => Array.from({ length: count }, (_, i) => slots[(head + i) % capacity] as T),
    clear() {
      slots.length = 0
      head = 0
      count = 0
    },
  }
  return ring
}

/** The journal keeping the most bytes: the one that gives way when every journal together is full. */
function heaviestOf(journals: Iterable<ScopeJournal>): ScopeJournal {
  let found: ScopeJournal | undefined
  for (const journal of journals) if (found === undefined || journal.bytes > found.bytes) found = journal
  // Every journal together is over its bound only while some journal keeps bytes.
  return found as ScopeJournal
}

function fieldsLength(fields: Fields): number {
  let length = 0
  for (const name in fields) length += name.length + (fields[name]?.length ?? 0)
  return length
}

// "different" keeps a copy, which no answer shows; one that wrongly says "same" shows in the
// journal's tests, but a directive cannot tell the two kinds apart on a line.
/** How many distinct recent values each kind of field remembers. */
const RECENT_VALUES = 8

type RecentValues<T> = {
  /** The remembered value equal to `value`, or `value` itself (made by `keep` when given), now remembered. */
  intern(value: T, keep?: (value: T) => T): T
}

function createRecentValues<T>(same: (a: T, b: T) => boolean): RecentValues<T> {
  const recent: T[] = []
  let oldest = 0
  return {
    intern(value, keep) {
      for (let i = 0; i < recent.length; i++) {
        const seen = recent[i] as T
        if (same(seen, value)) return seen
      }
      const kept = keep === undefined ? value : keep(value)
      if (recent.length < RECENT_VALUES) recent.push(kept)
      else {
        recent[oldest] = kept
        oldest = (oldest + 1) % RECENT_VALUES
      }
      return kept
    },
  }
}

function sameValue(a: string, b: string): boolean {
  return a === b
}

function sameFields(a: Fields, b: Fields): boolean {
  if (a === b) return true
  let names = 0
  for (const name in a) {
    if (a[name] !== b[name]) return false
    names += 1
  }
  for (const _ in b) names -= 1
  return names === 0
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

// The request's body belongs to the transport, which may reuse its memory (and Node's Buffer,
// whose slice() is a view of a shared 8 KiB slab, would keep the whole slab alive).
function copyBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes)
}

// A copy of the first characters' bytes: a slice of a string would keep the whole string alive.
function copiedStart(body: string | undefined): Uint8Array | undefined {
  if (body === undefined) return undefined
  const bytes = new Uint8Array(BODY_LIMIT * 3)
  const { written } = new TextEncoder().encodeInto(body.slice(0, BODY_LIMIT), bytes)
  return bytes.slice(0, written)
}

