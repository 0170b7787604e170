import type { Fields } from '../service/http.js'
import { BODY_LIMIT, type EntryParts, JOURNAL_BYTES_IN_ALL, JOURNAL_SIZE, type JournalEntry, type JournalRecord, type KeptEntry, toEntry } from '../store/journal-entry.js'
import type { JournalPort } from '../store/port.js'

/** One scope's request journal: its last `capacity` requests, oldest first. */
export type Journal = {
  readonly capacity: number
  record(record: JournalRecord): void
  /** What it keeps, oldest first. */
  items(): readonly KeptEntry[]
  /** Forgets every entry. */
  clear(): void
  /** Forgets every entry and leaves the pool for good: the store it served is gone. */
  release(): void
}

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
 * What the journals of one fake share: the order of requests across stores (`seq`), the answers
 * held by reference, and the bytes every journal keeps (each entry's path, query, headers, body
 * and answer copy, plus `ENTRY_BYTES`), which `maxBytes` (`JOURNAL_BYTES_IN_ALL`) bounds.
 */
export type JournalPool = {
  readonly maxBytes: number
  /** The journals in the pool, each with what it keeps. */
  readonly members: Set<PoolMember>
  seq: number
  sharedChars: number
  bytes: number
}

type PoolMember = { readonly bytes: () => number; readonly dropOldest: () => void }

/** A pool for the journals of one fake; `maxBytes` lowers the bound (tests). */
export function createJournalPool(maxBytes = JOURNAL_BYTES_IN_ALL): JournalPool {
  return { maxBytes, members: new Set(), seq: 0, sharedChars: 0, bytes: 0 }
}

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

/**
 * Creates a journal holding the last `asked` requests of one scope (its whole part), within
 * `pool`'s bounds. Recording stores references and copies at most `BODY_LIMIT` bytes; headers and
 * query are redacted only when entries are read.
 */
export function createJournal(asked = JOURNAL_SIZE, pool: JournalPool = createJournalPool()): Journal {
  // A capacity that is not a whole number keeps as many as its whole part; 0 keeps none.
  const capacity = Math.max(0, Math.floor(asked))
  const ring = createRing<Stored>(capacity)
  let bytes = 0
  const forget = (entry: Stored | undefined): void => {
    if (entry === undefined) return
    bytes -= entry.bytes
    pool.bytes -= entry.bytes
    pool.sharedChars -= entry.sharedChars
  }
  const member: PoolMember = { bytes: () => bytes, dropOldest: () => forget(ring.shift()) }
  pool.members.add(member)
  const store = storeEntries(pool)
  const clear = (): void => {
    for (const entry of ring.items()) forget(entry)
    ring.clear()
  }
  return {
    capacity,
    record(record) {
      const stored = store(record)
      forget(ring.push(stored))
      bytes += stored.bytes
      pool.bytes += stored.bytes
      pool.sharedChars += stored.sharedChars
      while (pool.bytes > pool.maxBytes) heaviest(pool).dropOldest()
    },
    items: ring.items,
    clear,
    release() {
      clear()
      pool.members.delete(member)
    },
  }
}

/** The journal port in memory, and what a store's drop asks of it. */
export type MemoryJournal = Omit<JournalPort, 'chunks'> & {
  chunks(scope: string | undefined): Iterable<readonly KeptEntry[]>
  /** Forgets a scope whose store was dropped, and its room in the pool. */
  drop(scope: string): void
}

/** Each scope's journal in this process: `size` requests each (`JOURNAL_SIZE`), `maxBytes` every one together. */
export function createMemoryJournal(size = JOURNAL_SIZE, maxBytes = JOURNAL_BYTES_IN_ALL): MemoryJournal {
  const pool = createJournalPool(maxBytes)
  const journals = new Map<string, Journal>()
  const journalOf = (scope: string): Journal => {
    let journal = journals.get(scope)
    if (journal === undefined) {
      journal = createJournal(size, pool)
      journals.set(scope, journal)
    }
    return journal
  }
  const named = (scope: string | undefined): Journal[] => (scope === undefined ? [...journals.values()] : [journalOf(scope)])
  return {
    record: (scope, record) => journalOf(scope).record(record),
    chunks: (scope) => named(scope).map((journal) => journal.items()),
    clear(scope) {
      for (const journal of named(scope)) journal.clear()
    },
    drop(scope) {
      journals.get(scope)?.release()
      journals.delete(scope)
    },
  }
}

/** Turns what the fake hands over into what one journal keeps, numbered in `pool`'s order. */
function storeEntries(pool: JournalPool): (record: JournalRecord) => Stored {
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
      responseHeaders: response?.headers,
      responseBody,
      sharedChars: shared ? answer.length : 0,
      bytes: ENTRY_BYTES + path.length + search.length + fieldsLength(headers) + (keptBody?.length ?? 0) + (typeof responseBody === 'string' ? 0 : (responseBody?.length ?? 0)),
      entry: shownEntry,
      text: shownText,
    }
  }
}

/** The last `capacity` items, oldest first. */
type Ring<T> = {
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

/** The member keeping the most bytes: the one that gives way when the pool is full. */
function heaviest(pool: JournalPool): PoolMember {
  let found: PoolMember | undefined
  for (const member of pool.members) if (found === undefined || member.bytes() > found.bytes()) found = member
  // The pool is over its bound only while some member keeps bytes.
  return found as PoolMember
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

