import { randomUUID } from 'node:crypto'
import { type ApiError, apiError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { parseInt64Text } from '../service/int64.js'
import { toPetJson } from '../service/pets.js'
import { type Int64, type NewPet, type Pet, PET_STATUSES, type PetStatus } from '../spec/animals-service.js'
import type { RedisCall } from './connection.js'
import { isStale, StaleScopes, VERSION_GUARD, versionKey } from './redis-scopes.js'

/**
 * The animals of one store in Redis, read and changed by every replica at once:
 *
 * - `<prefix>{<label>}:pets`, a hash of each animal's JSON text by id;
 * - `<prefix>{<label>}:ids`, and `:status:<status>` for each PetStatus, sorted sets of the ids
 *   (scored by id, so a list is a range in ascending id order, the spec's order);
 * - `<prefix>{<label>}:last`, the last id handed out: it only grows, so no id is ever handed out
 *   twice, by any replica, not even after a reset or a snapshot load;
 * - `<prefix>animals`, how many animals every store holds together: the budget (`--max-animals`).
 *
 * A store's keys share the hash tag `{<label>}`, so on Redis Cluster they sit on one slot. Each
 * change is one Lua script: Redis runs it whole, before or after any other replica's, so an id is
 * assigned, the animal stored and the budget taken in one atomic step. Ids are scored as doubles:
 * above 2^53 two ids may share a score, and Redis then orders them by their digits, which is still
 * ascending for ids of the same length.
 */
export type RedisAnimals = {
  readonly label: string
  /**
   * With `version`, `get`, `listJson` and `create` act only if the forced rules and latencies are
   * still at that version (the one the request was matched against), else throw `StaleScopes`.
   */
  get(id: Int64, version?: string): Promise<string | undefined>
  /** The first `limit` animals in ascending id order, only those with `status` when given, as one JSON array. */
  listJson(limit: number, status?: PetStatus, version?: string): Promise<string>
  create(newPet: NewPet, version?: string): Promise<Result<Created, ApiError>>
  /** Creates `newPets` in one atomic step, ids one after another: all of them, or none past the budget. */
  createMany(newPets: readonly NewPet[]): Promise<Result<{ readonly firstId: Int64; readonly lastId: Int64 }, ApiError>>
  /**
   * Replaces every animal with `pets` at once: they are written a chunk at a time to keys of this
   * replacement alone, which no request reads, then one script swaps them in. Refused with `store_full` past the budget, keeping the
   * animals it had. The last id becomes the highest of `pets` if that is higher.
   */
  replace(pets: readonly Pet[] | RedisLoad): Promise<Result<void, ApiError>>
  /**
   * Makes this store from `load` unless it is in use already (by a replica that came first), and
   * counts it among the stores in use (`--isolate`), last used `now`. Refused with `store_full`
   * when `maxStores` are in use or the animals do not fit the budget.
   */
  adopt(load: RedisLoad, now: number, maxStores: number): Promise<Result<void, ApiError>>
  /** Back to `load` if this store is in use (`--isolate`), ids going on after the highest handed out; nothing if it was dropped meanwhile. */
  renew(load: RedisLoad, now: number): Promise<Result<void, ApiError>>
  /** Whether this store is in use; when it is, it was last used `now`. */
  touch(now: number): Promise<boolean>
  /**
   * Drops this store, its animals given back to the budget, if it was last used at or before
   * `usedBy` (checked in the same step, so a store used meanwhile by another replica stays). True when dropped.
   */
  drop(usedBy: number): Promise<boolean>
  /** How many animals it holds. */
  size(): Promise<number>
  /** Every animal's JSON text in ascending id order (the first `max` when given); only those with `status` when given. */
  texts(status?: PetStatus, max?: number): Promise<string[]>
  /** How many animals have each status, and how many have none, read in one step. */
  counts(): Promise<Record<PetStatus | 'none', number>>
  /**
   * A page of the animals (of one status) in ascending id order: `limit` of them from `offset`, or
   * from the first whose id is `from` or above; with how many there are and the offset it started at.
   */
  page(status: PetStatus | undefined, start: { readonly offset: number } | { readonly from: Int64 }, limit: number): Promise<{ readonly total: number; readonly offset: number; readonly texts: string[] }>
}

/**
 * Animals ready to be written: the arguments of each chunk's commands, made once, so that a
 * fixture loaded into many stores (one per key) is serialised once.
 */
export type RedisLoad = {
  readonly chunks: readonly { readonly texts: readonly string[]; readonly scored: readonly string[]; readonly byStatus: ReadonlyMap<PetStatus, readonly string[]> }[]
  /** The highest id, as Redis's integer text; empty without animals. */
  readonly highest: string
}

/** A created animal's id and JSON text. */
export type Created = { readonly id: Int64; readonly json: string }

/** Where every key of animals-mock starts, unless `--store`'s URL names another (`?prefix=`). */
export const DEFAULT_PREFIX = 'animals-mock:'

/** How long the keys of a replacement under way live unless it swaps them in: an hour. */
const LOADING_TTL_SECONDS = 3600

/** Animals written to Redis per command while a store is replaced: about 100 KB of text. */
const WRITE_CHUNK = 1000

// Lua's numbers are doubles, printed with 14 digits: an id is read back as Redis's own text of it,
// exact to 64 bits, never as a Lua number.
// KEYS: pets, ids, status set (or ids again when the animal has none), last, the budget.
// ARGV: the JSON text before the id, after it, the most animals of every store, the status given.
const CREATE = `
local total = tonumber(redis.call('GET', KEYS[5]) or '0')
if total + 1 > tonumber(ARGV[3]) then return {0, total} end
redis.call('INCR', KEYS[4])
local id = redis.call('GET', KEYS[4])
local json = ARGV[1] .. id .. ARGV[2]
redis.call('HSET', KEYS[1], id, json)
redis.call('ZADD', KEYS[2], id, id)
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[3], id, id) end
redis.call('INCR', KEYS[5])
return {1, id, json}`

// KEYS: pets, ids, last, the budget, then the status sets in PET_STATUSES' order. ARGV: the most
// animals of every store, then for each animal its JSON text after the id and its status's place
// among the status sets (0 for none).
const CREATE_MANY = `
local count = (#ARGV - 1) / 2
local total = tonumber(redis.call('GET', KEYS[4]) or '0')
if total + count > tonumber(ARGV[1]) then return {0, total} end
local first = false
local id = false
for i = 1, count do
  redis.call('INCR', KEYS[3])
  id = redis.call('GET', KEYS[3])
  first = first or id
  redis.call('HSET', KEYS[1], id, '{"id":' .. id .. ARGV[2 * i])
  redis.call('ZADD', KEYS[2], id, id)
  local status = tonumber(ARGV[2 * i + 1])
  if status > 0 then redis.call('ZADD', KEYS[4 + status], id, id) end
end
redis.call('INCRBY', KEYS[4], count)
return {1, first, id}`

// KEYS: the sorted set to list, pets. ARGV: limit.
const LIST = `
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #ids == 0 then return '[]' end
return '[' .. table.concat(redis.call('HMGET', KEYS[2], unpack(ids)), ',') .. ']'`

// KEYS: pets. ARGV: the id.
const GET = `return redis.call('HGET', KEYS[1], ARGV[1])`

// KEYS: the sorted set to page, pets. ARGV: 'offset' or 'from', the offset or the id, limit.
const PAGE = `
local total = redis.call('ZCARD', KEYS[1])
local offset = ARGV[1] == 'from' and redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. ARGV[2]) or tonumber(ARGV[2])
local ids = redis.call('ZRANGE', KEYS[1], offset, offset + tonumber(ARGV[3]) - 1)
if #ids == 0 then return {total, offset, {}} end
return {total, offset, redis.call('HMGET', KEYS[2], unpack(ids))}`

// KEYS: pets, then each status set. ARGV: none.
const COUNTS = `
local counts = {redis.call('HLEN', KEYS[1])}
for i = 2, #KEYS do counts[i] = redis.call('ZCARD', KEYS[i]) end
return counts`

// KEYS: the store's keys (pets, ids, each status), then the same loading keys, then last, budget,
// the stores in use. ARGV: how many keys each group has, the highest id, the most animals of every
// store; for a store of a key (--isolate) also its label, the time, the most stores, and `adopt`
// (make it unless in use) or `renew` (back to the animals given if still in use, else nothing).
const SWAP = `
-- Whether the integer text a is above b, compared as texts: exact past 2^53, where numbers are not.
local function above(a, b)
  local a_neg, b_neg = a:sub(1, 1) == '-', b:sub(1, 1) == '-'
  if a_neg ~= b_neg then return b_neg end
  if #a ~= #b then return (#a > #b) ~= a_neg end
  return a ~= b and ((a > b) ~= a_neg)
end
local n = tonumber(ARGV[1])
local stores = KEYS[2 * n + 3]
local function discard() for i = n + 1, 2 * n do redis.call('DEL', KEYS[i]) end end
if ARGV[4] then
  local used = redis.call('ZSCORE', stores, ARGV[4])
  if ARGV[7] == 'renew' then
    if not used then discard() return {2, 0} end
  else
    if used then
      discard()
      redis.call('ZADD', stores, ARGV[5], ARGV[4])
      return {2, 0}
    end
    local count = redis.call('ZCARD', stores)
    if count >= tonumber(ARGV[6]) then discard() return {3, count} end
  end
end
local loaded = redis.call('HLEN', KEYS[n + 1])
local had = redis.call('HLEN', KEYS[1])
local total = tonumber(redis.call('GET', KEYS[2 * n + 2]) or '0')
if total - had + loaded > tonumber(ARGV[3]) then
  discard()
  return {0, total - had, loaded}
end
for i = 1, n do
  if redis.call('EXISTS', KEYS[n + i]) == 1 then
    redis.call('RENAME', KEYS[n + i], KEYS[i])
    redis.call('PERSIST', KEYS[i])
  else
    redis.call('DEL', KEYS[i])
  end
end
redis.call('INCRBY', KEYS[2 * n + 2], loaded - had)
local last = redis.call('GET', KEYS[2 * n + 1])
if ARGV[2] ~= '' and (last == false or above(ARGV[2], last)) then redis.call('SET', KEYS[2 * n + 1], ARGV[2]) end
if ARGV[4] then redis.call('ZADD', stores, ARGV[5], ARGV[4]) end
return {1, 0}`

// KEYS: the stores in use. ARGV: the label, the time.
const TOUCH = `
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1`

// KEYS: the store's keys (pets, ids, each status), last, budget, the stores in use. ARGV: how many
// keys the first group has, the label, the latest last use that is dropped.
const DROP = `
local n = tonumber(ARGV[1])
local used = redis.call('ZSCORE', KEYS[n + 3], ARGV[2])
if not used or tonumber(used) > tonumber(ARGV[3]) then return 0 end
local had = redis.call('HLEN', KEYS[1])
for i = 1, n + 1 do redis.call('DEL', KEYS[i]) end
redis.call('DECRBY', KEYS[n + 2], had)
redis.call('ZREM', KEYS[n + 3], ARGV[2])
return 1`

/** The keys of one store. */
function storeKeys(prefix: string, label: string) {
  const base = `${prefix}{${label}}:`
  const status = Object.fromEntries(PET_STATUSES.map((name) => [name, `${base}status:${name}`])) as Record<PetStatus, string>
  return { pets: `${base}pets`, ids: `${base}ids`, status, last: `${base}last`, budget: budgetKey(prefix), stores: storesKey(prefix), loading: `${base}loading:`, version: versionKey(prefix) }
}

/** How many animals every store under `prefix` holds together: the budget (`--max-animals`). */
export function budgetKey(prefix: string): string {
  return `${prefix}animals`
}

/** The labels of the stores in use under `--isolate`, a sorted set scored by each one's last use (ms). */
export function storesKey(prefix: string): string {
  return `${prefix}stores`
}

type StoreKeys = ReturnType<typeof storeKeys>

/** How many animals of a store have each status, and how many have none, read in one script. */
async function countsIn(call: RedisCall, keys: StoreKeys): Promise<Record<PetStatus | 'none', number>> {
  const [all = 0, ...byStatus] = (await call.script(COUNTS, [keys.pets, ...PET_STATUSES.map((status) => keys.status[status])], [])) as number[]
  const counts = Object.fromEntries(PET_STATUSES.map((status, i) => [status, byStatus[i] ?? 0])) as Record<PetStatus, number>
  return { ...counts, none: all - byStatus.reduce((sum, count) => sum + count, 0) }
}

/** Every animal's text of a store (only those with `status` when given), ascending id, read a chunk at a time. */
async function textsIn(call: RedisCall, keys: StoreKeys, status: PetStatus | undefined, max: number | undefined): Promise<string[]> {
  const ids = (await call.command(['ZRANGE', status === undefined ? keys.ids : keys.status[status], '0', String(max === undefined ? -1 : max - 1)])) as string[]
  const texts: string[] = []
  for (let start = 0; start < ids.length; start += WRITE_CHUNK) {
    texts.push(...((await call.command(['HMGET', keys.pets, ...ids.slice(start, start + WRITE_CHUNK)])) as string[]))
  }
  return texts
}

/** Options of `redisAnimals`. */
export type RedisAnimalsOptions = {
  readonly call: RedisCall
  readonly prefix: string
  readonly label: string
  /** The most animals every store may hold together (`--max-animals`). */
  readonly maxAnimals: number
}

/** An animal's JSON text after its id, which Redis assigns and writes in front: toPetJson writes the id first. */
function textAfterId(newPet: NewPet): string {
  return toPetJson({ ...newPet, id: 0 }).slice('{"id":0'.length)
}

/**
 * Runs a script (whose last key is the version of the forced rules) at `version`: with VERSION_GUARD
 * first, it does nothing and throws StaleScopes once the version moved. Without a version, it runs as it is.
 */
async function runAtVersion(call: RedisCall, script: string, keysWithVersion: readonly string[], args: readonly string[], version: string | undefined): Promise<unknown> {
  if (version === undefined) return call.script(script, keysWithVersion.slice(0, -1), args)
  const reply = await call.script(VERSION_GUARD + script, keysWithVersion, [...args, version])
  if (isStale(reply)) throw new StaleScopes()
  return reply
}

/** An id from Redis's integer text of it: a number while safe, a bigint past 2^53. */
function toId(text: string): Int64 {
  const id = parseInt64Text(text)
  if (id === undefined) throw new Error(`Redis handed out "${text}" as an id`)
  return id
}

/** Serialises `pets` for Redis once: their JSON texts and the ids of each sorted set, a chunk at a time. */
export function prepareLoad(pets: readonly Pet[]): RedisLoad {
  const chunks: RedisLoad['chunks'][number][] = []
  let highest: bigint | undefined
  for (let start = 0; start < pets.length; start += WRITE_CHUNK) {
    const texts: string[] = []
    const scored: string[] = []
    const byStatus = new Map<PetStatus, string[]>()
    for (const pet of pets.slice(start, start + WRITE_CHUNK)) {
      const id = String(pet.id)
      if (highest === undefined || BigInt(pet.id) > highest) highest = BigInt(pet.id)
      texts.push(id, toPetJson(pet))
      scored.push(id, id)
      if (pet.status !== undefined) {
        const ids = byStatus.get(pet.status) ?? []
        ids.push(id, id)
        byStatus.set(pet.status, ids)
      }
    }
    chunks.push({ texts, scored, byStatus })
  }
  return { chunks, highest: highest === undefined ? '' : String(highest) }
}

export function redisAnimals({ call, prefix, label, maxAnimals }: RedisAnimalsOptions): RedisAnimals {
  const keys = storeKeys(prefix, label)
  const setKeys = [keys.pets, keys.ids, ...PET_STATUSES.map((status) => keys.status[status])]
  // Each replacement writes keys of its own: two replicas loading the same store at once each swap
  // in a whole set, the later one last.
  const loadingKeysOf = (token: string): string[] => setKeys.map((key) => `${keys.loading}${token}:${key.slice(key.lastIndexOf(':') + 1)}`)
  const full = (what: string, held: number): ApiError => apiError('store_full', `No room for ${what} ${held} of at most ${maxAnimals} (--max-animals).`)
  // Writes the animals to keys of this call alone, then swaps them in with one script run whole.
  async function swapIn(load: RedisLoad, args: readonly string[]): Promise<[number, number, number?]> {
    const loadingKeys = loadingKeysOf(randomUUID())
    for (const chunk of load.chunks) {
      await Promise.all([
        call.command(['HSET', loadingKeys[0] as string, ...chunk.texts]),
        call.command(['ZADD', loadingKeys[1] as string, ...chunk.scored]),
        ...[...chunk.byStatus].map(([status, ids]) => call.command(['ZADD', loadingKeys[2 + PET_STATUSES.indexOf(status)] as string, ...ids])),
        // A replacement cut off half-way (a replica killed, Redis gone) leaves nothing for ever.
        ...loadingKeys.map((key) => call.command(['EXPIRE', key, String(LOADING_TTL_SECONDS)])),
      ])
    }
    return (await call.script(SWAP, [...setKeys, ...loadingKeys, keys.last, keys.budget, keys.stores], args)) as [number, number, number?]
  }
  const atVersion = (script: string, scriptKeys: readonly string[], args: readonly string[], version: string | undefined): Promise<unknown> =>
    runAtVersion(call, script, [...scriptKeys, keys.version], args, version)
  return {
    label,
    async get(id, version) {
      const json = version === undefined ? await call.command(['HGET', keys.pets, String(id)]) : await atVersion(GET, [keys.pets], [String(id)], version)
      return typeof json === 'string' ? json : undefined
    },
    async listJson(limit, status, version) {
      return String(await atVersion(LIST, [status === undefined ? keys.ids : keys.status[status], keys.pets], [String(limit)], version))
    },
    async create(newPet, version) {
      const after = textAfterId(newPet)
      const status = newPet.status === undefined ? keys.ids : keys.status[newPet.status]
      const reply = (await atVersion(CREATE, [keys.pets, keys.ids, status, keys.last, keys.budget], ['{"id":', after, String(maxAnimals), newPet.status ?? ''], version)) as [number, string, string?]
      if (reply[0] === 0) return fail(full('1 more animal: every store together holds', Number(reply[1])))
      return ok({ id: toId(reply[1]), json: reply[2] ?? '' })
    },
    async createMany(newPets) {
      const args = [String(maxAnimals)]
      for (const newPet of newPets) args.push(textAfterId(newPet), String(newPet.status === undefined ? 0 : PET_STATUSES.indexOf(newPet.status) + 1))
      const reply = (await call.script(CREATE_MANY, [keys.pets, keys.ids, keys.last, keys.budget, ...PET_STATUSES.map((status) => keys.status[status])], args)) as [number, string, string?]
      if (reply[0] === 0) return fail(full(`${newPets.length} more animals: every store together holds`, Number(reply[1])))
      return ok({ firstId: toId(reply[1]), lastId: toId(reply[2] ?? '') })
    },
    async replace(pets) {
      const load = 'chunks' in pets ? pets : prepareLoad(pets)
      const swapped = await swapIn(load, [String(setKeys.length), load.highest, String(maxAnimals)])
      return swapped[0] === 1 ? ok(undefined) : fail(full(`${Number(swapped[2])} animals in this store: the other stores hold`, Number(swapped[1])))
    },
    async adopt(load, now, maxStores) {
      const swapped = await swapIn(load, [String(setKeys.length), load.highest, String(maxAnimals), label, String(now), String(maxStores), 'adopt'])
      if (swapped[0] === 1 || swapped[0] === 2) return ok(undefined)
      if (swapped[0] === 3) return fail(apiError('store_full', `The fake holds its maximum of ${maxStores} stores, one per key (--isolate); stores left unused are dropped (--store-idle-minutes).`))
      return fail(full(`another store of ${Number(swapped[2])} animals: every store together holds`, Number(swapped[1])))
    },
    async renew(load, now) {
      const swapped = await swapIn(load, [String(setKeys.length), load.highest, String(maxAnimals), label, String(now), '0', 'renew'])
      return swapped[0] === 0 ? fail(full(`${Number(swapped[2])} animals in this store: the other stores hold`, Number(swapped[1]))) : ok(undefined)
    },
    async touch(now) {
      return (await call.script(TOUCH, [keys.stores], [label, String(now)])) === 1
    },
    async drop(usedBy) {
      return (await call.script(DROP, [...setKeys, keys.last, keys.budget, keys.stores], [String(setKeys.length), label, String(usedBy)])) === 1
    },
    async size() {
      return Number(await call.command(['HLEN', keys.pets]))
    },
    counts: () => countsIn(call, keys),
    async page(status, start, limit) {
      const args = 'from' in start ? ['from', String(start.from)] : ['offset', String(start.offset)]
      const [total, offset, texts] = (await call.script(PAGE, [status === undefined ? keys.ids : keys.status[status], keys.pets], [...args, String(limit)])) as [number, number, string[]]
      return { total, offset, texts }
    },
    texts: (status, max) => textsIn(call, keys, status, max),
  }
}
