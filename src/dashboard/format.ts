import type { Counts, ForcedRule, JournalEntry, LatencySpec } from './control-client.js'

/**
 * The latency setting in words.
 * @example describeLatency({ minMs: 100, maxMs: 900 }) // '100 to 900 ms on every answer'
 */
export function describeLatency(latency: LatencySpec): string {
  if (latency.ms !== undefined) return `${latency.ms} ms on every answer`
  if (latency.minMs !== undefined && latency.maxMs !== undefined) return `${latency.minMs} to ${latency.maxMs} ms on every answer`
  return 'none'
}

/**
 * A forced rule in words: what it matches, what it does, how often.
 * @example describeRule({ id: 1, tenant: null, method: 'GET', path: '/pets', status: 503, remaining: 2 })
 * // '#1 GET /pets → 503 (2 more)'
 */
export function describeRule(rule: ForcedRule): string {
  const match = `${rule.method ?? 'any method'} ${rule.path ?? 'any path'}`
  const effects: string[] = []
  if (rule.delayMs !== undefined) effects.push(`wait ${rule.delayMs} ms`)
  if (rule.drop === true) effects.push('drop the connection')
  if (rule.status !== undefined) effects.push(`${rule.status}${rule.code === undefined ? '' : ` ${rule.code}`}`)
  const times = rule.remaining === undefined ? 'until removed' : `${rule.remaining} more`
  const store = rule.tenant === null ? '' : ` [${rule.tenant}]`
  return `#${rule.id} ${match} → ${effects.join(', ')} (${times})${store}`
}

/**
 * The counts by status in words, in the order the fake gives them (PetStatus's, then none), e.g.
 * `30 animals: 12 available, 8 pending, 7 sold, 3 without status`: every status the fake counts, so
 * a status the spec adds is shown and counted with no change here.
 */
export function describeCounts(counts: Counts): string {
  const byStatus = Object.entries(counts).filter(([status]) => status !== 'none')
  const total = byStatus.reduce((sum, [, count]) => sum + count, counts.none)
  return `${total} animals: ${[...byStatus.map(([status, count]) => `${count} ${status}`), `${counts.none} without status`].join(', ')}`
}

/**
 * A category as the animals table shows it: the number the spec has, and the fake's name for it.
 * @example describeCategory(2, { 2: 'Cats' }) // '2 · Cats'
 */
export function describeCategory(categoryId: number, names: Readonly<Record<string, string>>): string {
  const name = names[String(categoryId)]
  return name === undefined ? String(categoryId) : `${categoryId} · ${name}`
}

/**
 * The result of a search by name in words, saying when only part of the store was read.
 * @example describeSearch('bel', { total: 3, complete: true }) // '3 animals named like "bel"'
 */
export function describeSearch(name: string, page: { readonly total: number; readonly scanned?: number; readonly complete?: boolean }): string {
  const found = `${page.total} ${page.total === 1 ? 'animal' : 'animals'} named like "${name}"`
  return page.complete === false ? `${found} among the first ${page.scanned ?? 0} (the rest were not searched)` : found
}

/** Which rows a page shows, e.g. `21–31 of 31`. */
export function describePage(offset: number, shown: number, total: number): string {
  if (total === 0) return 'none'
  return `${offset + 1}–${offset + shown} of ${total}`
}

/** The local time of an ISO timestamp with milliseconds, e.g. `12:00:01.250`. */
export function clockTime(iso: string): string {
  const time = new Date(iso)
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0')
  return `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${pad(time.getMilliseconds(), 3)}`
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-control-token'])

/**
 * A request header as the dashboard shows it. The journal redacts credentials already; these names
 * are hidden again here, keeping only the scheme, whatever the value holds.
 * @example shownHeader('authorization', 'Bearer [redacted]') // 'Bearer [redacted]'
 */
export function shownHeader(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value
  const scheme = /^([A-Za-z]{1,20}) /.exec(value)?.[1]
  return scheme === undefined ? '[redacted]' : `${scheme} [redacted]`
}

/** The CSS class of a status: `s2` for 2xx and so on, `sdrop` for a dropped connection. */
export function statusClass(status: number | null): string {
  return status === null ? 'sdrop' : `s${String(status)[0]}`
}

/**
 * What happened to a request, for the journal's status column: the status, and who chose it when
 * the API did not alone. The latency setting's delay has its own column.
 * @example describeOutcome({ status: 404, outcome: 'delayed', delayMs: 1500 }) // '404 · delayed 1500 ms by a rule'
 */
export function describeOutcome(entry: Pick<JournalEntry, 'status' | 'outcome' | 'delayMs'>): string {
  const status = String(entry.status)
  switch (entry.outcome) {
    case 'answered':
      return status
    case 'prefer':
      return `${status} · Prefer`
    case 'forced':
      return `${status} · forced`
    case 'delayed':
      return `${status} · delayed ${entry.delayMs} ms by a rule`
    case 'dropped':
      return 'dropped by a rule'
  }
}

/** A request and the answer it got, as the journal's detail shows them: start line, headers, body. */
export function describeExchange(entry: JournalEntry): string {
  const path = entry.query === '' ? entry.path : `${entry.path}?${entry.query}`
  const request = message(`${entry.method} ${path}`, entry.headers, entry.body)
  const answer = entry.response === undefined ? 'No answer: the connection was dropped.' : message(describeOutcome(entry), entry.response.headers, entry.response.body)
  return `${request}\n\n── answer ──\n${answer}`
}

function message(startLine: string, headers: Readonly<Record<string, string>>, body: string | undefined): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${shownHeader(name, value)}`)
  return `${[startLine, ...lines].join('\n')}${body === undefined ? '' : `\n\n${body}`}`
}
