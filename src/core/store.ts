import { type ApiError, apiError } from './errors.js'
import { fail, ok, type Result } from './http.js'
import { compareInt64, type Int64, nextInt64 } from './int64.js'
import { parseJsonNumber } from './json-body.js'
import { type NewPet, type Pet, type PetStatus, toPetJson } from './pets.js'
import { parse } from 'lossless-json'

/** A created animal and its JSON text, as `create` hands them back. */
export type Created = { readonly pet: Pet; readonly json: string }

/**
 * Animals prepared for a store: sorted by id and serialised once. Stores made from the same set
 * (isolated stores, resets) share its JSON texts instead of serialising the animals again.
 */
export type AnimalSet = {
  readonly ids: readonly Int64[]
  readonly texts: readonly string[]
  readonly statuses: readonly (PetStatus | undefined)[]
}

/** Options of `createStore`. */
export type StoreOptions = {
  /** The animals to start from; `reset()` returns to them. */
  readonly initial?: readonly Pet[] | AnimalSet
  /** Creating past this many animals answers 507 and stores nothing; nothing is ever evicted. */
  readonly maxAnimals?: number
}

/**
 * The in-memory animals: lookups by id in O(1), listings in O(limit), ids in ascending order. Each
 * animal is kept as its JSON text only (about 110 bytes with its indexes), since that is what every
 * answer sends; `all()` reads the texts back when animals are wanted as objects.
 */
export type Store = {
  readonly size: number
  /** Grows with every change: a writer compares it to know whether there is anything new. */
  readonly revision: number
  /** The JSON text of the animal with this id. */
  get(id: Int64): string | undefined
  /** The JSON texts of the first `limit` animals in ascending id order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): readonly string[]
  /** `list` as a JSON array, built once per change of the store and query: reads far outnumber writes. */
  listJson(limit: number, status?: PetStatus): string
  /** Like `list`, from the `offset`-th animal on: a page of the dashboard. */
  page(offset: number, limit: number, status?: PetStatus): readonly string[]
  /** How many animals have each status, and how many have none. */
  counts(): Readonly<Record<PetStatus | 'none', number>>
  create(newPet: NewPet): Result<Created, ApiError>
  /** Replaces every animal; ids continue after the highest of `pets`. Throws on duplicate ids. */
  replace(pets: readonly Pet[] | AnimalSet): void
  /** Returns to the initial animals. */
  reset(): void
  /** Every animal's JSON text in ascending id order: a snapshot without parsing anything. */
  texts(): readonly string[]
  /** Every animal in ascending id order, read back from the JSON texts. */
  all(): Pet[]
}

/** Sorts and serialises animals once, refusing duplicate ids. */
export function prepareAnimals(pets: readonly Pet[]): AnimalSet {
  const sorted = [...pets].sort((a, b) => compareInt64(a.id, b.id))
  const ids: Int64[] = []
  const texts: string[] = []
  const statuses: (PetStatus | undefined)[] = []
  for (const pet of sorted) {
    if (ids.length > 0 && compareInt64(ids[ids.length - 1] ?? 0, pet.id) === 0) throw new Error(`duplicate id ${pet.id}`)
    ids.push(pet.id)
    texts.push(toPetJson(pet))
    statuses.push(pet.status)
  }
  return { ids, texts, statuses }
}

/**
 * Creates a store. Ids are assigned from a counter that starts after the highest stored id and
 * only grows, so every new animal sorts last and the ordered lists stay sorted by appending.
 * @example createStore({ initial: [{ id: 1, name: 'Rex', categoryId: 2 }] }).get(1) // '{"id":1,...}'
 */
export function createStore(options: StoreOptions = {}): Store {
  const initial = toAnimalSet(options.initial ?? [])
  const maxAnimals = options.maxAnimals ?? Number.POSITIVE_INFINITY
  // While ids run 1, 2, 3... without gaps (the usual case: fixtures and seeds are numbered that
  // way, and the counter continues them), the id is the position in `ordered` and no map is kept:
  // that saves a third of the memory of a million animals. A gap moves every id into `byId`.
  let denseFrom: number | undefined
  let byId = new Map<Int64, string>()
  let ordered: string[] = []
  let byStatus = emptyStatusLists()
  let nextId: Int64 | undefined = 1
  let revision = 0
  // At most 4 filters x 100 limits entries; emptied whenever the store changes. Keyed by a number
  // made of the two, which costs no string per request.
  const listCache = new Map<number, string>()
  let cachedRevision = -1

  function add(id: Int64, text: string, status: PetStatus | undefined): void {
    if (denseFrom === undefined && ordered.length === 0 && typeof id === 'number') denseFrom = id
    else if (denseFrom !== undefined && id !== denseFrom + ordered.length) {
      const from = denseFrom
      ordered.forEach((existing, i) => byId.set(from + i, existing))
      denseFrom = undefined
    }
    if (denseFrom === undefined) byId.set(id, text)
    ordered.push(text)
    if (status !== undefined) byStatus[status].push(text)
  }

  function get(id: Int64): string | undefined {
    if (denseFrom === undefined) return byId.get(id)
    return typeof id === 'number' ? ordered[id - denseFrom] : undefined
  }

  function replace(pets: readonly Pet[] | AnimalSet): void {
    const set = toAnimalSet(pets)
    revision += 1
    denseFrom = undefined
    byId = new Map()
    ordered = []
    byStatus = emptyStatusLists()
    set.ids.forEach((id, i) => add(id, set.texts[i] ?? '', set.statuses[i]))
    const last = set.ids.at(-1)
    nextId = last !== undefined && compareInt64(last, 0) >= 0 ? nextInt64(last) : 1
  }

  replace(initial)

  return {
    get size() {
      return ordered.length
    },
    get revision() {
      return revision
    },
    get,
    list: (limit, status) => (status === undefined ? ordered : byStatus[status]).slice(0, limit),
    listJson(limit, status) {
      if (cachedRevision !== revision) {
        listCache.clear()
        cachedRevision = revision
      }
      const texts = status === undefined ? ordered : byStatus[status]
      // Only a whole limit below 2^32 makes an exact key; the API's are 1 to 100.
      if (limit >>> 0 !== limit) return jsonArray(texts, limit)
      const key = limit * 4 + (status === undefined ? 0 : STATUS_SLOT[status])
      let json = listCache.get(key)
      if (json === undefined) {
        json = jsonArray(texts, limit)
        listCache.set(key, json)
      }
      return json
    },
    page: (offset, limit, status) => (status === undefined ? ordered : byStatus[status]).slice(offset, offset + limit),
    counts() {
      const [available, pending, sold] = [byStatus.available.length, byStatus.pending.length, byStatus.sold.length]
      return { available, pending, sold, none: ordered.length - available - pending - sold }
    },
    create(newPet) {
      if (ordered.length >= maxAnimals) {
        return fail(apiError('store_full', `The fake holds its maximum of ${maxAnimals} animals; reset it to add more.`))
      }
      if (nextId === undefined) return fail(apiError('store_full', 'No 64-bit ids are left to assign.'))
      const pet: Pet = Object.freeze({ id: nextId, ...newPet })
      const json = toPetJson(pet)
      add(nextId, json, pet.status)
      nextId = nextInt64(nextId)
      revision += 1
      return ok({ pet, json })
    },
    replace,
    reset: () => replace(initial),
    texts: () => ordered.slice(),
    all: () => ordered.map(readPet),
  }
}

const STATUS_SLOT: Readonly<Record<PetStatus, number>> = { available: 1, pending: 2, sold: 3 }

function jsonArray(texts: readonly string[], limit: number): string {
  return `[${texts.slice(0, limit).join(',')}]`
}

function toAnimalSet(pets: readonly Pet[] | AnimalSet): AnimalSet {
  return 'texts' in pets ? pets : prepareAnimals(pets)
}

function readPet(text: string): Pet {
  return Object.freeze(parse(text, null, parseJsonNumber) as Pet)
}

function emptyStatusLists(): Record<PetStatus, string[]> {
  return { available: [], pending: [], sold: [] }
}
