import { compareInt64, parseInt64Text } from '../service/int64.js'
import type { Int64 } from '../spec/animals-service.js'

/**
 * The most animals one search by name reads: a store of millions is searched in its first part, and
 * the answer says how many it read, so no request holds the event loop for long.
 */
export const MAX_NAME_SCAN = 200_000

/** A page of the animals whose names contain the text, and how many matched among those read. */
export type NameMatches = { readonly texts: readonly string[]; readonly matched: number; readonly scanned: number }

/**
 * The position of the first animal whose id is `id` or above, in JSON texts ordered by id (each
 * starts `{"id":`): where a page that jumps to an id begins.
 */
export function offsetOfId(texts: readonly string[], id: Int64): number {
  let low = 0
  let high = texts.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (compareInt64(idOf(texts[middle] ?? ''), id) < 0) low = middle + 1
    else high = middle
  }
  return low
}

/** The animals whose names contain `name`, ignoring case: the page from `offset` among the matches. */
export function findByName(texts: readonly string[], name: string, offset: number, limit: number): NameMatches {
  const wanted = name.toLowerCase()
  // A cheap test on the JSON text first (the name as JSON writes it); only candidates are parsed.
  const written = JSON.stringify(wanted).slice(1, -1)
  const scanned = Math.min(texts.length, MAX_NAME_SCAN)
  const page: string[] = []
  let matched = 0
  for (let i = 0; i < scanned; i++) {
    const text = texts[i] ?? ''
    if (!text.toLowerCase().includes(written)) continue
    if (!(JSON.parse(text) as { name: string }).name.toLowerCase().includes(wanted)) continue
    if (matched >= offset && page.length < limit) page.push(text)
    matched += 1
  }
  return { texts: page, matched, scanned }
}

function idOf(text: string): Int64 {
  const digits = /^\{"id":(-?[0-9]+)/.exec(text)?.[1]
  return (digits === undefined ? undefined : parseInt64Text(digits)) ?? 0
}
