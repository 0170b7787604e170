import type { Budget } from '../service/budget.js'
import type { PetStatus } from '../spec/animals-service.js'

/**
 * A store's list answers as JSON arrays, kept for reuse: a page asks for the same few lists over
 * and over, and reads far outnumber writes. One map per filter (a status, or none) holds the answers
 * by limit, so no two lists can share a key whatever the statuses and limits. Every answer is of one
 * revision of the store (memory: a count of its changes; Redis: what its step reads of the store's
 * keys), and the cache empties when it meets another; kept only while the budget's cache room lasts.
 */
export type ListCache<Revision> = {
  /** The first `limit` of `texts` as a JSON array, built once per `revision` of the store. */
  json(texts: readonly string[], limit: number, status: PetStatus | undefined, revision: Revision): string
  /** The answer kept for `limit` and `status`, with the revision it is of. */
  kept(limit: number, status: PetStatus | undefined): { readonly json: string; readonly revision: Revision } | undefined
  /** Forgets every answer, giving their room back to the budget. */
  clear(): void
}

/** Creates an empty cache drawing on `budget`'s cache room. */
export function createListCache<Revision>(budget: Budget): ListCache<Revision> {
  // The answers kept, by filter then limit, all of one revision: none until the first answer.
  let cached: { readonly revision: Revision; readonly byFilter: Map<PetStatus | undefined, Map<number, string>> } | undefined
  let chars = 0
  const clear = (): void => {
    cached = undefined
    budget.giveCache(chars)
    chars = 0
  }
  return {
    json(texts, limit, status, revision) {
      if (cached?.revision !== revision) clear()
      cached ??= { revision, byFilter: new Map() }
      let answers = cached.byFilter.get(status)
      // Stryker disable next-line ConditionalExpression: a cache; a map made again holds the same answers
      if (answers === undefined) {
        answers = new Map()
        cached.byFilter.set(status, answers)
      }
      let json = answers.get(limit)
      // Stryker disable next-line ConditionalExpression: a cache; a list built again is the same text
      if (json === undefined) {
        json = jsonArray(texts, limit)
        // Kept only while the fake's cache budget has room: past it, lists are built per request.
        if (budget.takeCache(json.length)) {
          answers.set(limit, json)
          chars += json.length
        }
      }
      return json
    },
    kept(limit, status) {
      if (cached === undefined) return undefined
      const json = cached.byFilter.get(status)?.get(limit)
      return json === undefined ? undefined : { json, revision: cached.revision }
    },
    clear,
  }
}

/** The first `limit` texts as a JSON array. */
export function jsonArray(texts: readonly string[], limit: number): string {
  return `[${texts.slice(0, limit).join(',')}]`
}
