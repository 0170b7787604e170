import { LIMIT, PET_STATUSES } from '../spec/animals-service.js'

/**
 * What parity saw of one side's ids over a whole run: the animals listed before its first creation,
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

/** A side as the watch reaches it. */
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
 * it. A list that is not answered with a JSON array adds nothing to what was seen before.
 */
export async function watchCreations(side: WatchedService): Promise<{ readonly log: CreationLog; readonly fetch: typeof fetch }> {
  const before = new Map<string, unknown>()
  const lists = await Promise.all(FIRST_LISTS.map((query) => listed(side, query)))
  for (const pet of lists.flat()) {
    const { id, name } = (pet ?? {}) as { id?: unknown; name?: unknown }
    if (Number.isInteger(id)) before.set(String(id), name)
  }
  const created: string[] = []
  const creations = new URL(`${side.baseUrl}/pets`).pathname
  const watching: typeof fetch = async (input, init) => {
    const response = await side.fetch(input, init)
    if (response.status === 201 && init?.method === 'POST' && new URL(String(input)).pathname === creations) {
      const id = idIn(await response.clone().text())
      if (id !== undefined) created.push(id)
    }
    return response
  }
  return { log: { before, created }, fetch: watching }
}

async function listed(side: WatchedService, query: string): Promise<unknown[]> {
  const response = await side.fetch(`${side.baseUrl}/pets?${query}`, {
    headers: { accept: 'application/json', authorization: `Bearer ${side.apiKey}` },
    signal: AbortSignal.timeout(side.timeoutMs),
  })
  const body = parsed(await response.text())
  return response.status === 200 && Array.isArray(body) ? body : []
}

function idIn(text: string): string | undefined {
  const id = (parsed(text) as { id?: unknown } | undefined)?.id
  return Number.isInteger(id) ? String(id) : undefined
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined // not JSON
  }
}
