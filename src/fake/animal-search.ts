import type { Maybe } from '../store/port.js'

/**
 * The most animals one search by name reads: a store of millions is searched in its first part, and
 * the answer says how many it read, so no request holds the event loop for long.
 */
export const MAX_NAME_SCAN = 200_000

/** A page of the animals whose names contain the text, and how many matched among those read. */
export type NameMatches = { readonly texts: readonly string[]; readonly matched: number; readonly scanned: number }

/**
 * How many animals a search reads between pauses: a few milliseconds of work, so that the API and
 * every other request get the event loop in between, however many searches run at once.
 */
export const SEARCH_CHUNK = 5_000

/**
 * The most characters of animals a search reads at once (then fewer than `SEARCH_CHUNK` animals):
 * over Redis each read is a copy, and a store of 4 KB names would make a chunk 20 MB.
 */
export const SEARCH_CHARS = 1024 * 1024

/**
 * The animals whose names contain `name`, ignoring case, among the first `MAX_NAME_SCAN` of a store
 * of `size`: the page from `offset` among the matches. Reads `SEARCH_CHUNK` animals at a time with
 * `read`, at most `SEARCH_CHARS` characters of them (a read may answer fewer animals than asked),
 * and waits for `pause` between, so that no search holds the event loop, or more than a chunk of a
 * store kept elsewhere, at once.
 */
export async function findByName(
  read: (offset: number, count: number, maxChars: number) => Maybe<readonly string[]>,
  size: number,
  query: { readonly name: string; readonly offset: number; readonly limit: number },
  pause: () => Promise<void>,
): Promise<NameMatches> {
  const wanted = query.name.toLowerCase()
  const page: string[] = []
  let matched = 0
  let scanned = 0
  while (scanned < Math.min(size, MAX_NAME_SCAN)) {
    if (scanned > 0) await pause()
    const texts = await read(scanned, Math.min(SEARCH_CHUNK, MAX_NAME_SCAN - scanned), SEARCH_CHARS)
    if (texts.length === 0) break
    scanned += texts.length
    for (const text of texts) {
      if (!nameOf(text).toLowerCase().includes(wanted)) continue
      if (matched >= query.offset && page.length < query.limit) page.push(text)
      matched += 1
    }
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
