import { LIMIT, PET_STATUSES } from '../spec/animals-service.js'
import { cite } from '../spec/citations.js'
import { jsonOrUndefined } from '../service/json-value.js'

/**
 * What a run (parity's, verify's) saw of one service's ids: the animals listed before its first creation,
 * and the id of every animal created after. Spec section 2 makes `id` unique; a service whose
 * counter starts below the ids it already holds gives its first new animals old ids, and only a
 * look taken before anything is created can tell (later, the counter may have moved past them).
 */
export type CreationLog = {
  /** Each id listed before the first creation, with the name it was listed with. */
  readonly before: ReadonlyMap<string, unknown>
  /** The id of each animal created since (answered 201 with an integer id), in the order answered. */
  readonly created: readonly string[]
}

/** A service as the watch reaches it. */
export type WatchedService = {
  readonly baseUrl: string
  readonly apiKey: string
  readonly timeoutMs: number
  readonly fetch: typeof fetch
}

/** Every list the first look takes: all animals and each status, as many as `limit` allows. */
const FIRST_LISTS = [`limit=${LIMIT.max}`, ...PET_STATUSES.map((status) => `status=${status}&limit=${LIMIT.max}`)]

/**
 * Lists the side's animals, then gives a `fetch` that notes the id of every animal created through
 * it. A list that is not answered with a JSON array adds nothing to what was seen before; one that
 * cannot be had at all rejects (parity's set-up says so).
 */
export async function watchCreations(side: WatchedService): Promise<{ readonly log: CreationLog; readonly fetch: typeof fetch }> {
  const before = await firstLook(side)
  return watching(side, before, async () => undefined)
}

/**
 * The same watch with its first look taken just before the first creation through the `fetch`, so
 * that a run that creates nothing sends nothing more (verify, whose pacts may need no animal made).
 * A look that cannot be had sees nothing: the creation's own request meets whatever went wrong.
 */
export function watchCreationsFromTheFirst(side: WatchedService): { readonly log: CreationLog; readonly fetch: typeof fetch } {
  const before = new Map<string, unknown>()
  let look: Promise<void> | undefined
  const lookOnce = (): Promise<void> => {
    look ??= firstLook(side).then(
      (seen) => seen.forEach((name, id) => before.set(id, name)),
      () => undefined,
    )
    return look
  }
  return watching(side, before, lookOnce)
}

async function firstLook(side: WatchedService): Promise<Map<string, unknown>> {
  const before = new Map<string, unknown>()
  const lists = await Promise.all(FIRST_LISTS.map((query) => listed(side, query)))
  for (const pet of lists.flat()) {
    const { id, name } = (pet ?? {}) as { id?: unknown; name?: unknown }
    if (Number.isInteger(id)) before.set(String(id), name)
  }
  return before
}

function watching(side: WatchedService, before: Map<string, unknown>, beforeCreating: () => Promise<void>): { readonly log: CreationLog; readonly fetch: typeof fetch } {
  const created: string[] = []
  const creations = new URL(`${side.baseUrl}/pets`).pathname
  const watched: typeof fetch = async (input, init) => {
    const creating = init?.method === 'POST' && new URL(String(input)).pathname === creations
    if (creating) await beforeCreating()
    const response = await side.fetch(input, init)
    if (creating && response.status === 201) {
      const id = idIn(await response.clone().text())
      if (id !== undefined) created.push(id)
    }
    return response
  }
  return { log: { before, created }, fetch: watched }
}

async function listed(side: WatchedService, query: string): Promise<unknown[]> {
  const response = await side.fetch(`${side.baseUrl}/pets?${query}`, {
    headers: { accept: 'application/json', authorization: `Bearer ${side.apiKey}` },
    signal: AbortSignal.timeout(side.timeoutMs),
  })
  const body = jsonOrUndefined(await response.text())
  return response.status === 200 && Array.isArray(body) ? body : []
}

function idIn(text: string): string | undefined {
  const id = (jsonOrUndefined(text) as { id?: unknown } | undefined)?.id
  return Number.isInteger(id) ? String(id) : undefined
}


/** How many ids a reason names, at most. */
const NAMED_IDS = 3

/** What a creation log shows against spec section 2: how many new ids there were, and each reuse as a reason citing the spec. */
export type IdReuses = { readonly created: number; readonly listedBefore: number; readonly taken: number; readonly twice: number; readonly reasons: readonly string[] }

/**
 * Judges a creation log: a new animal whose id an animal listed before the first creation had, or
 * one an earlier new animal had, breaks "Unique identifier assigned by the service on creation".
 * @example idReuses({ before: new Map([['1', 'Rex']]), created: ['1'] }).reasons[0] // '1 of 1 new animals got ids that ...'
 */
export function idReuses(log: CreationLog): IdReuses {
  const { before, created } = log
  const taken = created.filter((id) => before.has(id))
  const twice = created.filter((id, index) => created.indexOf(id) !== index)
  const reasons: string[] = []
  if (taken.length > 0) {
    const named = taken.slice(0, NAMED_IDS).map((id) => `${id} (listed as ${JSON.stringify(before.get(id))})`)
    reasons.push(`${taken.length} of ${created.length} new animals got ids that animals listed before the first creation already had: ${listOf(named, taken.length)}; ${cite('petId')}`)
  }
  if (twice.length > 0) {
    reasons.push(`${twice.length} of ${created.length} new animals got an id an earlier new animal had: ${listOf(twice.slice(0, NAMED_IDS), twice.length)}; ${cite('petId')}`)
  }
  return { created: created.length, listedBefore: before.size, taken: taken.length, twice: twice.length, reasons }
}

/** The first few of a list, and how many more there are. */
function listOf(first: readonly string[], total: number): string {
  return total > first.length ? `${first.join(', ')} and ${total - first.length} more` : first.join(', ')
}
