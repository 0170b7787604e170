import { compareInt64, parseInt64Text } from '../service/int64.js'
import type { Int64, PetStatus } from '../spec/animals-service.js'

/**
 * A store's animals as JSON texts in id order, and by status. While ids run 1, 2, 3... without gaps
 * (the usual case: fixtures and seeds are numbered that way, and the counter continues them), the id
 * is the position in `ordered` and no map is kept: that saves a third of the memory of a million
 * animals. A gap moves every id into `byId`.
 */
export type AnimalIndex = {
  denseFrom: number | undefined
  byId: Map<Int64, string>
  readonly ordered: string[]
  /** One list per status of the store's set, every one present, empty or not. */
  readonly byStatus: ReadonlyMap<PetStatus, string[]>
}

/** An index with nothing in it, with a list for each of `statuses`. */
export function emptyIndex(statuses: readonly PetStatus[]): AnimalIndex {
  return { denseFrom: undefined, byId: new Map(), ordered: [], byStatus: new Map(statuses.map((status) => [status, []])) }
}

/** The texts of one status, or every text when no status is given. */
export function textsOf(index: AnimalIndex, status: PetStatus | undefined): readonly string[] {
  return status === undefined ? index.ordered : (index.byStatus.get(status) ?? [])
}

/** The text of the animal with this id. */
export function textOf(index: AnimalIndex, id: Int64): string | undefined {
  const { denseFrom } = index
  if (denseFrom === undefined) return index.byId.get(id)
  return typeof id === 'number' ? index.ordered[id - denseFrom] : undefined
}

/** Adds an animal whose id is above every id in the index. */
export function addToIndex(index: AnimalIndex, id: Int64, text: string, status: PetStatus | undefined): void {
  const { ordered } = index
  if (index.denseFrom === undefined && ordered.length === 0 && typeof id === 'number') index.denseFrom = id
  else if (index.denseFrom !== undefined && id !== index.denseFrom + ordered.length) {
    const from = index.denseFrom
    ordered.forEach((existing, i) => index.byId.set(from + i, existing))
    index.denseFrom = undefined
  }
  if (index.denseFrom === undefined) index.byId.set(id, text)
  ordered.push(text)
  if (status !== undefined) index.byStatus.get(status)?.push(text)
}

/** How many animals have each status of the index, and how many have none. */
export function countsOf(index: AnimalIndex): Readonly<Record<PetStatus | 'none', number>> {
  const counts: Partial<Record<PetStatus | 'none', number>> = {}
  let withStatus = 0
  for (const [status, texts] of index.byStatus) {
    counts[status] = texts.length
    withStatus += texts.length
  }
  counts.none = index.ordered.length - withStatus
  return counts as Record<PetStatus | 'none', number>
}

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

function idOf(text: string): Int64 {
  const digits = /^\{"id":(-?[0-9]+)/.exec(text)?.[1]
  return (digits === undefined ? undefined : parseInt64Text(digits)) ?? 0
}
