import { type Budget, type BudgetLimits, createBudget } from '../service/budget.js'
import { createListCache, type ListCache } from '../store/list-cache.js'

/**
 * The list answers a replica keeps, per store, each of a revision of its store (`:data` and `:last`,
 * which every load and every creation move on): a list's step sends the revision of the answer kept,
 * and Redis answers the texts only when the store moved since. A list of an unchanged store then
 * costs Redis no read of its animals and this replica no copy of them. Bounded as in memory by the
 * budget's cache room (`maxCacheChars`, every store together) and by `maxStores` stores; an answer
 * that finds no room makes it by forgetting other stores' answers, those used longest ago first.
 */
export type KeptLists = {
  /** A store's answers, that store now the one used last. */
  of(label: string): ListCache<string>
  /** Forgets every store's answers (the data went from Redis, or was loaded again). */
  clear(): void
}

/** Creates an empty `KeptLists`. */
export function keptLists(limits: BudgetLimits, maxStores: number): KeptLists {
  // Only its cache room is used: what the stores hold is counted in Redis.
  const budget = createBudget(limits)
  const byLabel = new Map<string, ListCache<string>>()
  const forget = (label: string, answers: ListCache<string>): void => {
    answers.clear()
    byLabel.delete(label)
  }
  // A store's share of the room: what does not fit is made room for from the other stores.
  const roomOf = (label: string): Budget => ({
    ...budget,
    takeCache(chars) {
      for (const [other, its] of byLabel) {
        if (budget.used.cacheChars + chars <= limits.maxCacheChars) break
        if (other !== label) forget(other, its)
      }
      return budget.takeCache(chars)
    },
  })
  return {
    of(label) {
      const answers = byLabel.get(label) ?? createListCache<string>(roomOf(label))
      // A Map keeps its keys in the order set: the first is the store used longest ago.
      byLabel.delete(label)
      byLabel.set(label, answers)
      for (const [oldest, its] of byLabel) {
        if (byLabel.size <= maxStores) break
        forget(oldest, its)
      }
      return answers
    },
    clear() {
      for (const [label, its] of byLabel) forget(label, its)
    },
  }
}
