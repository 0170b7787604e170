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

/**
 * How many animals a search reads between pauses: a few milliseconds of work, so that the API and
 * every other request get the event loop in between, however many searches run at once.
 */
export const SEARCH_CHUNK = 5_000

/**
 * The animals whose names contain `name`, ignoring case: the page from `offset` among the matches.
 * Reads `SEARCH_CHUNK` animals, then waits for `pause`, and so on.
 */
export async function findByName(texts: readonly string[], name: string, offset: number, limit: number, pause: () => Promise<void>): Promise<NameMatches> {
  const wanted = name.toLowerCase()
  const scanned = Math.min(texts.length, MAX_NAME_SCAN)
  const page: string[] = []
  let matched = 0
  for (let i = 0; i < scanned; i++) {
    if (i > 0 && i % SEARCH_CHUNK === 0) await pause()
    const text = texts[i] ?? ''
    if (!nameOf(text).toLowerCase().includes(wanted)) continue
    if (matched >= offset && page.length < limit) page.push(text)
    matched += 1
  }
  return { texts: page, matched, scanned }
}

/** Where an animal's name starts in its JSON text, which `toPetJson` writes with the name second. */
const NAME_KEY = ',"name":'
/** What follows the name in that text: a name's own quotes are escaped, so this ends it. */
const AFTER_NAME = ',"categoryId":'

/** An animal's name read from its JSON text, without parsing the rest. */
function nameOf(text: string): string {
  const start = text.indexOf(NAME_KEY) + NAME_KEY.length
  const literal = text.slice(start, text.indexOf(AFTER_NAME, start))
  // Stryker disable next-line StringLiteral: a fast path: JSON.parse reads a name without escapes the same
  return literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1)
}

function idOf(text: string): Int64 {
  const digits = /^\{"id":(-?[0-9]+)/.exec(text)?.[1]
  return (digits === undefined ? undefined : parseInt64Text(digits)) ?? 0
}
