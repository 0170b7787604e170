import type { Violation } from '../spec-rules/answer-rules.js'
import { createScrubber } from '../service/credentials.js'
import type { ProxiedExchange } from './proxy-api.js'

import { redactQuery } from '../service/credentials.js'
import { definedOnly } from '../service/defined-only.js'
/**
 * One exchange through the proxy as shown: no header, credential-like query values redacted, and no
 * credential the request carried anywhere (the reasons quote the answer scrubbed already).
 */
export type ProxyJournalEntry = {
  readonly seq: number
  readonly time: string
  readonly method: string
  /** With the base, e.g. `/v1/pets`. */
  readonly path: string
  readonly query: string
  /** `null` when the target gave no answer. */
  readonly status: number | null
  readonly durationMs: number
  readonly violations: readonly Violation[]
  /** Why the answer's body was not judged, when it was not. */
  readonly unjudged?: string
}

/** An exchange with a violation: the target answered it, so it has a status. */
export type ViolatingEntry = ProxyJournalEntry & { readonly status: number }

/** The last exchanges, every violation counted, for the log, the dashboard and the report. */
export type ProxyJournal = {
  add(exchange: ProxiedExchange): ProxyJournalEntry
  entries(): readonly ProxyJournalEntry[]
  /** Entries with a violation, oldest first, at most the capacity. */
  violating(): readonly ViolatingEntry[]
  readonly exchanges: number
  readonly violations: number
}

/** Keeps `capacity` exchanges and as many with violations; counts never drop. */
export function createProxyJournal(capacity = 1000, now: () => number = Date.now): ProxyJournal {
  const recent: ProxyJournalEntry[] = []
  const violating: ViolatingEntry[] = []
  let seq = 0
  let violations = 0
  return {
    add(exchange) {
      const scrub = createScrubber(exchange.credentials)
      seq += 1
      const entry: ProxyJournalEntry = {
        seq,
        time: new Date(now()).toISOString(),
        method: exchange.request.method,
        path: scrub(`${exchange.request.basePath}${exchange.request.path}`),
        query: scrub(redactQuery(exchange.request.search)),
        status: exchange.status,
        durationMs: Math.round(exchange.durationMs * 10) / 10,
        violations: exchange.violations,
        ...definedOnly({ unjudged: exchange.unjudged }),
      }
      push(recent, entry, capacity)
      // Only an answer is judged, so an entry with violations has a status.
      if (entry.violations.length > 0 && entry.status !== null) {
        violations += entry.violations.length
        push(violating, { ...entry, status: entry.status }, capacity)
      }
      return entry
    },
    entries: () => [...recent],
    violating: () => [...violating],
    get exchanges() {
      return seq
    },
    get violations() {
      return violations
    },
  }
}

function push<T extends ProxyJournalEntry>(list: T[], entry: T, capacity: number): void {
  list.push(entry)
  if (list.length > capacity) list.shift()
}
