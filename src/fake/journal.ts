import type { Fields, PlainRequest, PlainResponse } from '../service/http.js'
import { authSchemeOf, CREDENTIAL_HEADER, REDACTED, redactQuery, type Scrubber, scrubberOfRequest } from '../service/credentials.js'
import type { Outcome } from './app.js'

/** One request the API received, as the journal shows it: credentials are never in it. */
export type JournalEntry = {
  /** Increases by one with each request; `since` filters on it. */
  readonly seq: number
  /** ISO 8601 time of arrival. */
  readonly time: string
  /** Which store answered: `shared`, or under isolation `tenant-<n>` (never the key itself). */
  readonly tenant: string | null
  readonly method: string
  /** The path as the client sent it, base included, e.g. `/v1/pets/7`. */
  readonly path: string
  /** The query string without `?`, credential-like parameters redacted. */
  readonly query: string
  /** `null` when the connection was dropped on purpose. */
  readonly status: number | null
  /** Set when anything but the API's own answer was given: Prefer, or a forced rule of any kind. */
  readonly forced: boolean
  /** Who chose the answer: the API, the request's Prefer, or a forced rule that answered, delayed or dropped. */
  readonly outcome: Outcome
  /** How long the answer was held back (latency setting or forced delay). */
  readonly delayMs: number
  /** Request headers, lower-case, credentials redacted. */
  readonly headers: Fields
  /** The body as text, cut at `BODY_LIMIT` characters; absent when there was none. */
  readonly body?: string
  /** What the client was given: absent when the connection was dropped. */
  readonly response?: JournalResponse
}

/** The answer as the journal shows it: its headers and its body, cut and redacted as the request's are. */
export type JournalResponse = {
  readonly headers: Fields
  readonly body?: string
}

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

/** What the fake hands the journal for each request; redaction happens when it is read. */
export type JournalRecord = {
  readonly request: PlainRequest
  readonly receivedAt: number
  readonly tenant: string | null
  readonly status: number | null
  readonly forced: boolean
  readonly outcome: Outcome
  readonly delayMs: number
  /** The answer given; absent when the connection was dropped. */
  readonly response?: PlainResponse
}

/** One store's request journal: its last `capacity` requests, oldest first. */
export type Journal = {
  readonly capacity: number
  record(record: JournalRecord): void
  entries(filter?: JournalFilter): JournalEntry[]
  /** Forgets every entry. */
  clear(): void
  /** Forgets every entry and leaves the pool for good: the store it served is gone. */
  release(): void
}

/** How many requests each store's journal keeps unless told otherwise. */
export const JOURNAL_SIZE = 1000

/** Bodies are kept up to this many bytes (a request's) or characters (an answer's): enough to see what was sent. */
export const BODY_LIMIT = 4096

/**
 * The characters of answers the journals hold by reference, every entry of every store together.
 * An answer is usually a string the fake keeps anyway (a cached list, a stored animal), so holding
 * it costs nothing and cutting a copy would cost more than answering; past this total, long
 * answers are cut into copies, so a thousand long answers cannot hold much memory.
 */
export const SHARED_ANSWER_CHARS = 16 * 1024 * 1024

/**
 * What the journals of every store together may keep, counted as the bytes of each entry's path,
 * query, headers, body and answer copy, plus `ENTRY_BYTES` for the entry itself. Past it, the
 * journal that keeps the most forgets its oldest entries: one store's traffic never pushes out
 * another's while it keeps more than that other.
 */
export const JOURNAL_BYTES_IN_ALL = 64 * 1024 * 1024

/** What an entry costs beyond its texts: the record itself, about 20 fields. */
export const ENTRY_BYTES = 256

/**
 * What the journals of one fake share: the order of requests across stores (`seq`), the answers
 * held by reference, and the bytes every journal keeps, which `JOURNAL_BYTES_IN_ALL` bounds.
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
// costs next to nothing on the hot path; everything shown is derived when entries are read.
type Stored = {
  readonly seq: number
  readonly receivedAt: number
  readonly tenant: string | null
  readonly method: string
  readonly basePath: string
  readonly path: string
  readonly search: string
  readonly status: number | null
  readonly forced: boolean
  readonly outcome: Outcome
  readonly delayMs: number
  readonly headers: Fields
  readonly body: Uint8Array | undefined
  readonly responseHeaders: Fields | undefined
  /** The answer's text (cut when read), or its first `BODY_LIMIT` characters' bytes (a copy: a slice keeps the whole). */
  readonly responseBody: string | Uint8Array | undefined
  /** How many characters of another's string this entry holds: counted in `SHARED_ANSWER_CHARS`. */
  readonly sharedChars: number
  /** What the entry counts for in `JOURNAL_BYTES_IN_ALL`. */
  readonly bytes: number
}

/** Each journal's entries, oldest first, for reading several journals as one. */
const storedOf = new WeakMap<Journal, () => readonly Stored[]>()

/**
 * Creates a journal holding the last `asked` requests of one store (its whole part), within `pool`'s bounds.
 * Recording stores references and copies at most `BODY_LIMIT` bytes; headers and query are
 * redacted only when entries are read.
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
  const journal: Journal = {
    capacity,
    record(record) {
      const stored = store(record)
      forget(ring.push(stored))
      bytes += stored.bytes
      pool.bytes += stored.bytes
      pool.sharedChars += stored.sharedChars
      while (pool.bytes > pool.maxBytes) heaviest(pool).dropOldest()
    },
    entries: (filter = {}) => readJournals([journal], filter),
    clear,
    release() {
      clear()
      pool.members.delete(member)
    },
  }
  storedOf.set(journal, ring.items)
  return journal
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

/** The entries of several journals as one, in the order the requests came. */
export function readJournals(journals: readonly Journal[], filter: JournalFilter = {}): JournalEntry[] {
  return limited(matchingIn(journals, filter), filter).map((entry) => toEntry(entry))
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
 * A page of the journals as JSON texts: the entries `readJournals` gives, cut short once they pass
 * `JOURNAL_PAGE_CHARS` (the first always kept), waiting for `pause` after every `PAGE_CHUNK`
 * entries, so that no read holds the event loop for long.
 */
export async function readJournalPage(journals: readonly Journal[], filter: JournalFilter, pause: () => Promise<void>): Promise<JournalPage> {
  return cutPage(matchingIn(journals, filter), filter, (entry) => JSON.stringify(toEntry(entry)), pause)
}

/**
 * The page `filter` asks of the entries matching it (oldest first): its `since` and `limit`, cut
 * short past `JOURNAL_PAGE_CHARS` of the texts `textOf` gives, pausing every `PAGE_CHUNK` entries.
 */
export async function cutPage<T extends { readonly seq: number }>(matching: readonly T[], filter: JournalFilter, textOf: (entry: T) => string, pause: () => Promise<void>): Promise<JournalPage> {
  const chosen = limited(matching, filter)
  const texts: string[] = []
  let chars = 0
  for (const entry of chosen) {
    if (texts.length > 0 && texts.length % PAGE_CHUNK === 0) await pause()
    const text = textOf(entry)
    if (texts.length > 0 && chars + text.length > JOURNAL_PAGE_CHARS) break
    texts.push(text)
    chars += text.length
  }
  const last = chosen[texts.length - 1]
  return { texts, next: last?.seq ?? filter.since ?? 0, more: last !== undefined && last !== matching.at(-1), total: matching.length }
}

/**
 * One request as the journal shows it, numbered `seq`: what a journal kept elsewhere (in Redis)
 * stores, scrubbed of credentials before it leaves the process.
 */
export function journalEntryOf(record: JournalRecord, seq: number): JournalEntry {
  const { request, response } = record
  return toEntry({
    ...record,
    seq,
    method: request.method,
    basePath: request.basePath,
    path: request.path,
    search: request.search,
    headers: request.headers,
    body: request.body?.subarray(0, BODY_LIMIT),
    responseHeaders: response?.headers,
    responseBody: response?.body,
    sharedChars: 0,
    bytes: 0,
  })
}

function matchingIn(journals: readonly Journal[], filter: JournalFilter): Stored[] {
  const matching: Stored[] = []
  for (const journal of journals) for (const entry of storedOf.get(journal)?.() ?? []) if (matches(entry, filter)) matching.push(entry)
  if (journals.length > 1) matching.sort((a, b) => a.seq - b.seq)
  return matching
}

function limited<T>(matching: readonly T[], filter: JournalFilter): readonly T[] {
  if (filter.limit === undefined) return matching
  return filter.since === undefined ? matching.slice(-filter.limit) : matching.slice(0, filter.limit)
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

/** Whether an entry is one `filter` asks for (its `limit` aside). */
export function matches(entry: Pick<Stored, 'method' | 'status' | 'tenant' | 'seq' | 'path' | 'basePath'>, filter: JournalFilter): boolean {
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false
  if (filter.status !== undefined && entry.status !== filter.status) return false
  if (filter.tenant !== undefined && entry.tenant !== filter.tenant) return false
  if (filter.since !== undefined && entry.seq <= filter.since) return false
  if (filter.path !== undefined && entry.path !== filter.path && `${entry.basePath}${entry.path}` !== filter.path) return false
  return true
}

// A copy of the first characters' bytes: a slice of a string would keep the whole string alive.
function copiedStart(body: string | undefined): Uint8Array | undefined {
  if (body === undefined) return undefined
  const bytes = new Uint8Array(BODY_LIMIT * 3)
  const { written } = new TextEncoder().encodeInto(body.slice(0, BODY_LIMIT), bytes)
  return bytes.slice(0, written)
}

function shownHeaders(fields: Fields, scrub: Scrubber): Fields {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) headers[name] = CREDENTIAL_HEADER.test(name) ? redactSecret(name, value) : scrub(value)
  return headers
}

// Interned header sets repeat, so a reader builds one scrubber per set and query, not per entry.
const scrubbers = new WeakMap<Fields, Map<string, Scrubber>>()

function scrubberOf(entry: Stored): Scrubber {
  const byQuery = scrubbers.get(entry.headers) ?? new Map<string, Scrubber>()
  scrubbers.set(entry.headers, byQuery)
  const found = byQuery.get(entry.search) ?? scrubberOfRequest({ headers: entry.headers, search: entry.search })
  byQuery.set(entry.search, found)
  return found
}

const decoder = new TextDecoder()

// Whatever the request sent may repeat one of its own credentials (a key in a name, a path, a
// Referer's query): every part shown is scrubbed of them, as the answer is.
function toEntry(entry: Stored): JournalEntry {
  const scrub = scrubberOf(entry)
  const shown: JournalEntry = {
    seq: entry.seq,
    time: new Date(entry.receivedAt).toISOString(),
    tenant: entry.tenant,
    method: entry.method,
    path: scrub(`${entry.basePath}${entry.path}`),
    query: scrub(redactQuery(entry.search)),
    status: entry.status,
    forced: entry.forced,
    outcome: entry.outcome,
    delayMs: entry.delayMs,
    headers: shownHeaders(entry.headers, scrub),
  }
  const withBody = entry.body === undefined ? shown : { ...shown, body: scrub(decoder.decode(entry.body)) }
  if (entry.responseHeaders === undefined) return withBody
  const text = typeof entry.responseBody === 'string' ? entry.responseBody.slice(0, BODY_LIMIT) : entry.responseBody === undefined ? undefined : decoder.decode(entry.responseBody)
  const response: JournalResponse = { headers: shownHeaders(entry.responseHeaders, scrub), ...(text === undefined ? {} : { body: scrub(text) }) }
  return { ...withBody, response }
}

/**
 * Redacts a credential header's value. Authorization and Proxy-Authorization keep a known auth
 * scheme (`Bearer`), so a test can still see which kind of credential was sent; a first word that is
 * no known scheme may be the key's own, and goes with the rest.
 */
function redactSecret(name: string, value: string): string {
  if (name !== 'authorization' && name !== 'proxy-authorization') return REDACTED
  const scheme = authSchemeOf(value)
  return scheme === undefined ? REDACTED : `${scheme}${REDACTED}`
}
