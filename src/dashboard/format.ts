import type { Counts, ForcedRule, LatencySpec } from './control-client.js'

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

/** The counts by status in words, e.g. `30 animals: 12 available, 8 pending, 7 sold, 3 without status`. */
export function describeCounts(counts: Counts): string {
  const total = counts.available + counts.pending + counts.sold + counts.none
  return `${total} animals: ${counts.available} available, ${counts.pending} pending, ${counts.sold} sold, ${counts.none} without status`
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
