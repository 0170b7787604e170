import { type Budget, createBudget } from '../service/budget.js'
import { fail, mapped, ok, type Result } from '../service/http.js'
import { compareInt64, nextInt64, toInt64 } from '../service/int64.js'
import { parseJsonNumber } from '../service/json-body.js'
import { toPetJson } from '../service/pets.js'
import { parse } from 'lossless-json'
import { type Int64, type NewPet, type Pet, PET_STATUSES, type PetStatus } from '../spec/animals-service.js'
import type { Counts, Created, NoRoom, Refusal } from '../store/port.js'
import { addToIndex, type AnimalIndex, countsOf, emptyIndex, textOf, textsOf } from './animal-index.js'
import { createListCache } from '../store/list-cache.js'

/**
 * Animals prepared for a store: sorted by id and serialised once. Stores made from the same set
 * (isolated stores, resets) share its JSON texts instead of serialising the animals again.
 */
export type AnimalSet = {
  readonly ids: readonly Int64[]
  readonly texts: readonly string[]
  readonly statuses: readonly (PetStatus | undefined)[]
}

/** Options of `openStore`. */
export type StoreOptions = {
  /** The animals to start from; `reset()` returns to them. */
  readonly initial?: readonly Pet[] | AnimalSet
  /**
   * The room this store shares with the fake's other stores; past it a creation is refused and
   * nothing is stored, and nothing is ever evicted. Unlimited unless given.
   */
  readonly budget?: Budget
  /** Ids handed out before (another process, before a crash) that must never be handed out again. */
  readonly ids?: IdReservation
  /** The statuses it lists by and counts: PetStatus's values (spec 2) unless given. */
  readonly statuses?: readonly PetStatus[]
}

/**
 * What keeps ids from being reused across restarts: the lowest id that may still be handed out,
 * and a hook told of every id before it is handed out, which makes it durable first (the node
 * adapter writes a reservation file ahead of use).
 */
export type IdReservation = {
  /** No id below this is handed out, not even after a reset. */
  readonly floor: Int64
  /** Called with each id before it is handed out; throws when it cannot be made durable. */
  use(id: Int64): void
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
  /** The JSON texts in ascending id order, of one status when given: the store's own list, not a copy, to read before the next change. */
  view(status?: PetStatus): readonly string[]
  /** How many animals have each status, and how many have none. */
  counts(): Counts
  create(newPet: NewPet): Result<Created, Refusal>
  /**
   * Creates every one of `newPets` or none: the budget is taken for all of them and their ids made
   * durable in one write first, so a full disk refuses them whole rather than half-way.
   */
  createMany(newPets: readonly NewPet[]): Result<{ readonly firstId: Int64; readonly lastId: Int64 }, Refusal>
  /** Makes the next `count` ids durable at once, before any is handed out. */
  reserveIds(count: number): Result<void, Refusal>
  /**
   * Replaces every animal; ids continue after the highest of `pets`. Throws on duplicate ids, and
   * refuses animals that do not fit the budget, keeping the animals it had.
   */
  replace(pets: readonly Pet[] | AnimalSet): Result<void, Refusal>
  /**
   * `replace`, with the animals sorted and serialised a chunk at a time and `pause` between chunks,
   * so that a million animals do not hold the event loop; the store changes at the end, at once.
   */
  replaceGradually(pets: readonly Pet[], pause: () => Promise<void>): Promise<Result<void, Refusal>>
  /**
   * Returns to its initial animals, or to `initial` from now on (a new fixture, shared by every
   * store made from it, its texts counted by none); refused past the budget, keeping what it had.
   */
  reset(initial?: AnimalSet): Result<void, NoRoom>
  /** Gives all its room back to the budget: the store is no longer used. */
  release(): void
  /** Every animal's JSON text in ascending id order: a snapshot without parsing anything. */
  texts(): readonly string[]
  /** Every animal in ascending id order, read back from the JSON texts. */
  all(): Pet[]
}

/** Sorts and serialises animals once, refusing duplicate ids. */
export function prepareAnimals(pets: readonly Pet[]): AnimalSet {
  return prepared([...pets].sort(byId), undefined)
}

function byId(a: Pet, b: Pet): number {
  return compareInt64(a.id, b.id)
}

/** The ids, JSON texts and statuses of animals sorted by id, refusing an id equal to the one before (`previous`: the last of those before them). */
function prepared(sorted: readonly Pet[], previous: Int64 | undefined): { ids: Int64[]; texts: string[]; statuses: (PetStatus | undefined)[] } {
  let last = previous
  for (const pet of sorted) {
    if (last !== undefined && compareInt64(last, pet.id) === 0) throw new Error(`duplicate id ${pet.id}`)
    last = pet.id
  }
  return { ids: sorted.map((pet) => pet.id), texts: sorted.map(toPetJson), statuses: sorted.map((pet) => pet.status) }
}

/**
 * Opens a store on its initial animals, or refuses when they do not fit its budget. Ids are
 * assigned from a counter that starts after the highest stored id and only grows, so every new
 * animal sorts last and the ordered lists stay sorted by appending.
 */
export function openStore(options: StoreOptions = {}): Result<Store, NoRoom> {
  let initial = toAnimalSet(options.initial ?? [])
  const statuses = options.statuses ?? PET_STATUSES
  const budget = options.budget ?? createBudget({ maxAnimals: Number.POSITIVE_INFINITY, maxTextChars: Number.POSITIVE_INFINITY })
  const lists = createListCache<number>(budget)
  // The characters of texts this store made itself (created, loaded): the initial set's are shared.
  let ownChars = 0
  let index = emptyIndex(statuses)
  const ids = createIdCounter(options.ids)
  let revision = 0

  // Takes the budget for the new animals (giving back the old), then puts the index in place.
  function swapIn(next: AnimalIndex, set: AnimalSet, chars: number): Result<void, NoRoom> {
    if (!retake(budget, [index.ordered.length, ownChars], [set.ids.length, chars])) return noRoom(budget, set.ids.length - index.ordered.length)
    ownChars = chars
    revision += 1
    index = next
    ids.continueAfter(set.ids.at(-1))
    return ok(undefined)
  }

  // An initial set's texts are shared by every store made from it: they count for none.
  function replace(pets: readonly Pet[] | AnimalSet, shared = pets === initial): Result<void, NoRoom> {
    const set = toAnimalSet(pets)
    return swapIn(indexOf(set, statuses), set, shared ? 0 : textLength(set.texts))
  }

  // Adds new animals after every other, or none: their room taken and their ids made durable first.
  function add(newPets: readonly NewPet[]): Result<readonly Created[], Refusal> {
    const made = numbered(newPets, ids.next)
    if (made === undefined) return fail(NO_IDS)
    const admitted = admit(budget, ids, made)
    if (!admitted.ok) return admitted
    made.created.forEach(({ id, json }, i) => addToIndex(index, id, json, newPets[i]?.status))
    ownChars += made.chars
    revision += 1
    return ok(made.created)
  }

  const initialised = replace(initial)
  if (!initialised.ok) return initialised

  return ok({
    get size() {
      return index.ordered.length
    },
    get revision() {
      return revision
    },
    get: (id) => textOf(index, id),
    list: (limit, status) => textsOf(index, status).slice(0, limit),
    listJson: (limit, status) => lists.json(textsOf(index, status), limit, status, revision),
    page: (offset, limit, status) => textsOf(index, status).slice(offset, offset + limit),
    view: (status) => textsOf(index, status),
    counts: () => countsOf(index),
    create: (newPet) => mapped(add([newPet]), (created) => created[0] as Created),
    createMany: (newPets) => mapped(add(newPets), (created) => ({ firstId: (created[0] as Created).id, lastId: (created.at(-1) as Created).id })),
    reserveIds: (count) => (ids.reserve(count) ? ok(undefined) : fail({ kind: 'not_durable', adding: count })),
    replace: (pets) => replace(pets),
    replaceGradually: async (pets, pause) => {
      const { set, index: next, chars } = await indexedGradually(pets, statuses, pause)
      return swapIn(next, set, chars)
    },
    reset(next = initial) {
      const renewed = replace(next, true)
      if (renewed.ok) initial = next
      return renewed
    },
    release() {
      lists.clear()
      budget.give(index.ordered.length, ownChars)
      ownChars = 0
      index = emptyIndex(statuses)
      revision += 1
    },
    texts: () => index.ordered.slice(),
    all: () => index.ordered.map(readPet),
  })
}

const NO_IDS: Refusal = { kind: 'no_ids' }

function noRoom(budget: Budget, adding: number): Result<never, NoRoom> {
  return fail({ kind: 'no_room', adding, held: { animals: budget.used.animals, chars: budget.used.chars } })
}

/** Gives back the room of what a store held and takes that of what replaces it; when that does not fit, keeps what it held and says so. */
function retake(budget: Budget, [heldAnimals, heldChars]: readonly [number, number], [animals, chars]: readonly [number, number]): boolean {
  budget.give(heldAnimals, heldChars)
  if (budget.take(animals, chars)) return true
  budget.take(heldAnimals, heldChars) // what it held is still there
  return false
}

/**
 * Takes the room of new animals and makes their ids durable, or says why not, taking nothing. One
 * write makes every id durable: a full disk refuses them whole rather than half-way.
 */
function admit(budget: Budget, ids: IdCounter, made: Numbered): Result<void, Refusal> {
  const count = made.created.length
  const last = made.created.at(-1) as Created
  if (!budget.take(count, made.chars)) return noRoom(budget, count)
  if ((count === 1 || ids.reserve(count)) && ids.use(last.id)) return ok(undefined)
  budget.give(count, made.chars)
  return fail({ kind: 'not_durable', adding: count })
}

/** New animals with their ids and JSON texts, and the characters of those. */
type Numbered = { readonly created: readonly Created[]; readonly chars: number }

/** New animals with the ids from `first` on and their JSON texts, and how long those are; `undefined` when there are none, or past the int64 maximum. */
function numbered(newPets: readonly NewPet[], first: Int64 | undefined): Numbered | undefined {
  if (newPets.length === 0) return undefined
  const created: Created[] = []
  let chars = 0
  let id = first
  for (const newPet of newPets) {
    if (id === undefined) return undefined
    const json = toPetJson({ id, ...newPet })
    created.push({ id, json })
    chars += json.length
    id = nextInt64(id)
  }
  return { created, chars }
}

/** A store's next id: after the highest stored, never below the reservation's floor, made durable before it is used. */
type IdCounter = {
  /** The id the next animal gets; `undefined` past the int64 maximum. */
  readonly next: Int64 | undefined
  /** Continues after `last`, the highest id now stored (none: from 1). */
  continueAfter(last: Int64 | undefined): void
  /** Makes `id` durable and moves past it; false when it cannot be made durable. */
  use(id: Int64): boolean
  /** Makes the next `count` ids durable at once; false when they cannot be. */
  reserve(count: number): boolean
}

function createIdCounter(reservation: IdReservation | undefined): IdCounter {
  let next: Int64 | undefined = 1
  const durable = (id: Int64): boolean => {
    try {
      reservation?.use(id)
      return true
    } catch {
      return false
    }
  }
  return {
    get next() {
      return next
    },
    continueAfter(last) {
      next = last === undefined || compareInt64(last, 1) < 0 ? 1 : nextInt64(last)
      const floor = reservation?.floor
      if (floor !== undefined && next !== undefined && compareInt64(next, floor) < 0) next = floor
    },
    use(id) {
      if (!durable(id)) return false
      next = nextInt64(id)
      return true
    },
    reserve(count) {
      // Past the int64 maximum no id is left to reserve: each creation there answers for itself.
      const last = next === undefined || count < 1 ? undefined : toInt64(BigInt(next) + BigInt(count - 1))
      return last === undefined || durable(last)
    },
  }
}

/** Animals handled between pauses when a store takes in many at once: a few milliseconds of work. */
const PER_CHUNK = 2000

// Large arrays are gathered in chunks and joined once, with pauses between: grown one push at a
// time, an array of a million in old space is copied again and again while it points at young
// strings, which stalls the loop for a tenth of a second.
async function joinChunks<T>(chunks: readonly T[][], pause: () => Promise<void>): Promise<T[]> {
  await pause()
  return ([] as T[]).concat(...chunks)
}

/** Animals sorted, serialised and indexed a chunk at a time, pausing between chunks. */
async function indexedGradually(pets: readonly Pet[], statuses: readonly PetStatus[], pause: () => Promise<void>): Promise<{ set: AnimalSet; index: AnimalIndex; chars: number }> {
  const { set, texts } = await prepareAnimalsGradually(pets, pause)
  return { set, ...(await indexGradually(set, texts, statuses, pause)) }
}

async function prepareAnimalsGradually(pets: readonly Pet[], pause: () => Promise<void>): Promise<{ set: AnimalSet; texts: string[] }> {
  let ascending = true
  for (let i = 1; i < pets.length && ascending; i++) {
    if (i % (PER_CHUNK * 10) === 0) await pause()
    ascending = compareInt64((pets[i - 1] as Pet).id, (pets[i] as Pet).id) < 0
  }
  // Out of order, they are sorted at once: a snapshot this fake wrote is always in order.
  const sorted = ascending ? pets : [...pets].sort(byId)
  const ids: Int64[][] = []
  const texts: string[][] = []
  const statuses: (PetStatus | undefined)[][] = []
  for (let start = 0; start < sorted.length; start += PER_CHUNK) {
    if (start > 0) await pause()
    const chunk = prepared(sorted.slice(start, start + PER_CHUNK), sorted[start - 1]?.id)
    ids.push(chunk.ids)
    texts.push(chunk.texts)
    statuses.push(chunk.statuses)
  }
  const joined = { ids: await joinChunks(ids, pause), texts: await joinChunks(texts, pause), statuses: await joinChunks(statuses, pause) }
  return { set: joined, texts: joined.texts }
}

/** The index of a prepared set, built a chunk at a time; `texts` is the set's own, fresh array, used as it is. */
async function indexGradually(set: AnimalSet, texts: string[], statuses: readonly PetStatus[], pause: () => Promise<void>): Promise<{ index: AnimalIndex; chars: number }> {
  const { ids } = set
  const first = ids[0]
  let dense = typeof first === 'number'
  let chars = 0
  const byStatusChunks = new Map<PetStatus, string[][]>(statuses.map((status) => [status, []]))
  for (let start = 0; start < ids.length; start += PER_CHUNK) {
    if (start > 0) await pause()
    const chunk = emptyIndex(statuses).byStatus
    for (let i = start; i < Math.min(ids.length, start + PER_CHUNK); i++) {
      const text = texts[i] as string
      if (dense && ids[i] !== (first as number) + i) dense = false
      chars += text.length
      const status = set.statuses[i]
      if (status !== undefined) chunk.get(status)?.push(text)
    }
    for (const [status, list] of chunk) byStatusChunks.get(status)?.push(list)
  }
  // Ids with gaps need the map; it grows by itself, off the usual path (fixtures and seeds are dense).
  const byId = new Map<Int64, string>()
  if (!dense) {
    for (let i = 0; i < ids.length; i++) {
      if (i > 0 && i % PER_CHUNK === 0) await pause()
      byId.set(ids[i] as Int64, texts[i] as string)
    }
  }
  const byStatus = new Map<PetStatus, string[]>()
  for (const [status, chunks] of byStatusChunks) byStatus.set(status, await joinChunks(chunks, pause))
  return { index: { denseFrom: dense ? (first as number) : undefined, byId, ordered: texts, byStatus }, chars }
}

/** The index of a prepared set, built at once. */
function indexOf(set: AnimalSet, statuses: readonly PetStatus[]): AnimalIndex {
  const index = emptyIndex(statuses)
  set.ids.forEach((id, i) => addToIndex(index, id, set.texts[i] ?? '', set.statuses[i]))
  return index
}

function textLength(texts: readonly string[]): number {
  let total = 0
  for (const text of texts) total += text.length
  return total
}

function toAnimalSet(pets: readonly Pet[] | AnimalSet): AnimalSet {
  return 'texts' in pets ? pets : prepareAnimals(pets)
}

function readPet(text: string): Pet {
  return Object.freeze(parse(text, null, parseJsonNumber) as Pet)
}

