import { type ApiError, apiError } from './errors.js'
import { fail, ok, type Result } from './http.js'
import { compareInt64, type Int64, nextInt64 } from './int64.js'
import { type NewPet, type Pet, type PetStatus, toPetJson } from './pets.js'

/** A stored animal with its JSON text, serialised once when it is stored. */
export type StoredPet = { readonly pet: Pet; readonly json: string }

/** Options of `createStore`. */
export type StoreOptions = {
  /** The animals to start from; `reset()` returns to them. */
  readonly initial?: readonly Pet[]
  /** Creating past this many animals answers 507 and stores nothing; nothing is ever evicted. */
  readonly maxAnimals?: number
}

/** The in-memory animals: lookups by id in O(1), listings in O(limit), ids in ascending order. */
export type Store = {
  readonly size: number
  /** Grows with every change: a writer compares it to know whether there is anything new. */
  readonly revision: number
  get(id: Int64): StoredPet | undefined
  /** The first `limit` animals in ascending id order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): readonly StoredPet[]
  /** Like `list`, from the `offset`-th animal on: a page of the dashboard. */
  page(offset: number, limit: number, status?: PetStatus): readonly StoredPet[]
  /** How many animals have each status, and how many have none. */
  counts(): Readonly<Record<PetStatus | 'none', number>>
  create(newPet: NewPet): Result<StoredPet, ApiError>
  /** Replaces every animal; ids continue after the highest of `pets`. Throws on duplicate ids. */
  replace(pets: readonly Pet[]): void
  /** Returns to the initial animals. */
  reset(): void
  /** Every animal in ascending id order. */
  all(): readonly Pet[]
}

/**
 * Creates a store. Ids are assigned from a counter that starts after the highest stored id and
 * only grows, so every new animal sorts last and the ordered lists stay sorted by appending.
 * @example createStore({ initial: [{ id: 1, name: 'Rex', categoryId: 2 }] }).get(1)?.pet.name // 'Rex'
 */
export function createStore(options: StoreOptions = {}): Store {
  const initial = sortedById(options.initial ?? [])
  const maxAnimals = options.maxAnimals ?? Number.POSITIVE_INFINITY
  let byId = new Map<Int64, StoredPet>()
  let ordered: StoredPet[] = []
  let byStatus = emptyStatusLists()
  let nextId: Int64 | undefined = 1
  let revision = 0

  function add(pet: Pet): StoredPet {
    const stored: StoredPet = { pet: Object.freeze(pet), json: toPetJson(pet) }
    byId.set(pet.id, stored)
    ordered.push(stored)
    if (pet.status !== undefined) byStatus[pet.status].push(stored)
    return stored
  }

  function replace(pets: readonly Pet[]): void {
    revision += 1
    const sorted = sortedById(pets)
    byId = new Map()
    ordered = []
    byStatus = emptyStatusLists()
    nextId = 1
    for (const pet of sorted) {
      if (byId.has(pet.id)) throw new Error(`duplicate id ${pet.id}`)
      add({ ...pet })
    }
    const last = sorted.at(-1)
    if (last !== undefined && compareInt64(last.id, 0) >= 0) nextId = nextInt64(last.id)
  }

  replace(initial)

  return {
    get size() {
      return ordered.length
    },
    get revision() {
      return revision
    },
    get: (id) => byId.get(id),
    list: (limit, status) => (status === undefined ? ordered : byStatus[status]).slice(0, limit),
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
      const stored = add({ id: nextId, ...newPet })
      nextId = nextInt64(nextId)
      revision += 1
      return ok(stored)
    },
    replace,
    reset: () => replace(initial),
    all: () => ordered.map((stored) => stored.pet),
  }
}

function emptyStatusLists(): Record<PetStatus, StoredPet[]> {
  return { available: [], pending: [], sold: [] }
}

function sortedById(pets: readonly Pet[]): Pet[] {
  return [...pets].sort((a, b) => compareInt64(a.id, b.id))
}
