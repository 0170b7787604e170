import { authSchemeOf, CREDENTIAL_HEADER, REDACTED, redactQuery, type Scrubber, scrubberOfRequest, spellingReach } from '../service/credentials.js'
import type { Fields, PlainRequest, PlainResponse } from '../service/http.js'

/**
 * Who chose a request's answer: the API itself (`answered`), the request's own `Prefer`, a forced
 * rule's response (`forced`), a rule that only held the API's answer back (`delayed`), or a rule
 * that dropped the connection (`dropped`).
 */
export type Outcome = 'answered' | 'prefer' | 'forced' | 'delayed' | 'dropped'

/** One request the API received, as the journal shows it: credentials are never in it. */
export type JournalEntry = {
  /** Increases by one with each request; `since` filters on it. */
  readonly seq: number
  /** ISO 8601 time of arrival. */
  readonly time: string
  /** Which store answered: `shared`, or under isolation its label (never the key itself). */
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
  /** The body as text, cut at `BODY_LIMIT` bytes; absent when there was none. */
  readonly body?: string
  /** What the client was given: absent when the connection was dropped. */
  readonly response?: JournalResponse
}

/** The answer as the journal shows it: its headers and its body, cut and redacted as the request's are. */
export type JournalResponse = {
  readonly headers: Fields
  readonly body?: string
}

/** What the fake hands the journal for each request; redaction happens when it is shown. */
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

/**
 * An entry a journal keeps, as a reader sees it: what a filter looks at, and the entry itself,
 * made when asked (`text`, its JSON, or `entry`).
 */
export type KeptEntry = {
  readonly seq: number
  readonly tenant: string | null
  readonly method: string
  readonly status: number | null
  readonly basePath: string
  /** The path below the base. */
  readonly path: string
  text(): string
  entry(): JournalEntry
}

/** How many requests each store's journal keeps unless told otherwise (`--journal-size`). */
export const JOURNAL_SIZE = 1000

/** Bodies are kept up to this many bytes (a request's) or characters (an answer's): enough to see what was sent. */
export const BODY_LIMIT = 4096

/**
 * What the journals of every store together may keep, in bytes. Past it, the journal that keeps
 * the most forgets its oldest entries: one store's traffic never pushes out another's while it
 * keeps more than that other.
 */
export const JOURNAL_BYTES_IN_ALL = 64 * 1024 * 1024

/** What a journal keeps of one request, before anything is scrubbed. */
export type EntryParts = {
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
  /** The request's first `BODY_LIMIT` bytes. */
  readonly body: Uint8Array | undefined
  /** Whether the request's body was longer than `body`. */
  readonly bodyCut: boolean
  readonly responseHeaders: Fields | undefined
  /** The answer's text (cut when shown), or its first `BODY_LIMIT` characters' bytes. */
  readonly responseBody: string | Uint8Array | undefined
  /** Whether the answer was longer than `BODY_LIMIT` characters. */
  readonly responseCut: boolean
}

/** A record's parts as they are: what a journal kept elsewhere (in Redis) scrubs and writes at once. */
export function partsOf(record: JournalRecord, seq: number): EntryParts {
  const { request, response } = record
  return {
    seq,
    receivedAt: record.receivedAt,
    tenant: record.tenant,
    method: request.method,
    basePath: request.basePath,
    path: request.path,
    search: request.search,
    status: record.status,
    forced: record.forced,
    outcome: record.outcome,
    delayMs: record.delayMs,
    headers: request.headers,
    body: request.body?.subarray(0, BODY_LIMIT),
    bodyCut: (request.body?.length ?? 0) > BODY_LIMIT,
    responseHeaders: response?.headers,
    responseBody: response?.body,
    responseCut: (response?.body?.length ?? 0) > BODY_LIMIT,
  }
}

const decoder = new TextDecoder()

/**
 * One request as the journal shows it. Whatever the request sent may repeat one of its own
 * credentials (a key in a name, a path, a Referer's query): every part shown is scrubbed of them,
 * as the answer is.
 */
export function toEntry(parts: EntryParts): JournalEntry {
  const scrub = scrubberOfRequest(parts)
  const shown: JournalEntry = {
    seq: parts.seq,
    time: new Date(parts.receivedAt).toISOString(),
    tenant: parts.tenant,
    method: parts.method,
    path: scrub(`${parts.basePath}${parts.path}`),
    query: scrub(redactQuery(parts.search)),
    status: parts.status,
    forced: parts.forced,
    outcome: parts.outcome,
    delayMs: parts.delayMs,
    headers: shownHeaders(parts.headers, scrub),
  }
  // Only a cut text needs it (most are not cut, and the journal over Redis makes every entry at once).
  const reach = parts.bodyCut || parts.responseCut ? spellingReach(parts) : 0
  const withBody = parts.body === undefined ? shown : { ...shown, body: scrubbedStart(decoder.decode(parts.body), parts.bodyCut, scrub, reach) }
  if (parts.responseHeaders === undefined) return withBody
  const { responseBody } = parts
  const text = typeof responseBody === 'string' ? responseBody.slice(0, BODY_LIMIT) : responseBody === undefined ? undefined : decoder.decode(responseBody)
  const response: JournalResponse = { headers: shownHeaders(parts.responseHeaders, scrub), ...(text === undefined ? {} : { body: scrubbedStart(text, parts.responseCut, scrub, reach) }) }
  return { ...withBody, response }
}

/**
 * The start of a longer text, scrubbed. A credential the cut split is not whole in it, and no
 * scrubber knows a part of one: the end of the text, as far back as the longest spelling of the
 * request's credentials could start (`reach`), goes too.
 */
function scrubbedStart(text: string, cut: boolean, scrub: Scrubber, reach: number): string {
  const scrubbed = scrub(text)
  return cut && reach > 0 ? scrubbed.slice(0, Math.max(0, scrubbed.length - reach + 1)) : scrubbed
}

function shownHeaders(fields: Fields, scrub: Scrubber): Fields {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) headers[name] = CREDENTIAL_HEADER.test(name) ? redactSecret(name, value) : scrub(value)
  return headers
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
