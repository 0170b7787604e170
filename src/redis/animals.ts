import { randomUUID } from 'node:crypto'
import type { BudgetLimits } from '../service/budget.js'
import { fail, mapped, ok, type Result } from '../service/http.js'
import { parseInt64Text } from '../service/int64.js'
import { toPetJson } from '../service/pets.js'
import { type Int64, type NewPet, type Pet, PET_STATUSES, type PetStatus } from '../spec/animals-service.js'
import type { AnimalsPort, Counts, Held, NoRoom, Refusal } from '../store/port.js'
import type { RedisCall } from './connection.js'
import { LUA_MEMBER_OF, memberOf, setsOf, type SharedKeys, type StoreKeys } from './keys.js'

/**
 * Animals ready to be written: the arguments of each chunk's commands, made once, so that a
 * fixture loaded into many stores (one per key) is serialised once.
 */
export type RedisLoad = {
  readonly chunks: readonly { readonly texts: readonly string[]; readonly members: readonly string[]; readonly byStatus: ReadonlyMap<PetStatus, readonly string[]> }[]
  readonly count: number
  /** The characters of every animal's JSON text. */
  readonly chars: number
  /** The highest id, as Redis's integer text; empty without animals. */
  readonly highest: string
}

/** How long the keys of a replacement under way live unless it swaps them in: an hour. */
const LOADING_TTL_SECONDS = 3600

/** Animals written or read per command while a store is replaced or read whole: about 100 KB of text. */
export const WRITE_CHUNK = 1000

/**
 * The most characters one command reads of a bounded read (a search's): each is a short turn of
 * Redis and of this replica, so a request waiting behind it on the connection waits little.
 */
export const READ_CHARS = 256 * 1024

/** The largest int64, the last id there is: a store that handed it out hands out no more. */
export const INT64_MAX = '9223372036854775807'

/** Whether the integer text a is above b, compared as texts: exact past 2^53, where Lua's numbers are not. */
const LUA_ABOVE = `local function above(a, b)
  local a_neg, b_neg = a:sub(1, 1) == '-', b:sub(1, 1) == '-'
  if a_neg ~= b_neg then return b_neg end
  if #a ~= #b then return (#a > #b) ~= a_neg end
  return a ~= b and ((a > b) ~= a_neg)
end`

/**
 * Creates animals after the store's last id, all of them or none. k: the animals, their order,
 * last, the status sets in PET_STATUSES' order, the store's characters, every store's animals and
 * characters. a: the most animals and characters of every store, the highest last id that leaves
 * room for them all, then for each animal its JSON text after the id, its characters without the
 * id, and its status's place among the status sets (0: none). The ids are drawn first and given
 * back when the animals do not fit. Answers the first and last id and the last animal's JSON text.
 */
export const LUA_CREATE = `${LUA_MEMBER_OF}
${LUA_ABOVE}
local function create(k, a)
  local n = (#a - 3) / 3
  local s = ${PET_STATUSES.length}
  local held = redis.call('MGET', k[3], k[5 + s], k[6 + s])
  local last = held[1] or '0'
  if above(last, a[3]) then return {'no_ids'} end
  local total = tonumber(held[2] or '0')
  local chars = tonumber(held[3] or '0')
  local ids, length = {}, 0
  for i = 1, n do
    local id = redis.call('INCR', k[3])
    -- INCR's reply is a double in Lua: exact below 2^53, read back as Redis's text past it.
    ids[i] = (id > -9007199254740992 and id < 9007199254740992) and string.format('%.0f', id) or redis.call('GET', k[3])
    length = length + tonumber(a[3 * i + 2]) + #ids[i]
  end
  if total + n > tonumber(a[1]) or chars + length > tonumber(a[2]) then
    redis.call('SET', k[3], last)
    return {'no_room', total, chars}
  end
  local json
  for i = 1, n do
    local member = member_of(ids[i])
    json = '{"id":' .. ids[i] .. a[3 * i + 1]
    redis.call('HSET', k[1], member, json)
    redis.call('ZADD', k[2], 0, member)
    local status = tonumber(a[3 * i + 3])
    if status > 0 then redis.call('ZADD', k[3 + status], 0, member) end
  end
  redis.call('INCRBY', k[5 + s], n)
  redis.call('INCRBY', k[4 + s], length)
  redis.call('INCRBY', k[6 + s], length)
  return {'created', ids[1], ids[n], json}
end`

// KEYS: the set to read, the animals. ARGV: the first place, the last, and the most characters to
// read (0: any): past them, it stops after the text that reached them.
const SLICE = `
local members = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2])
if #members == 0 then return {} end
local most = tonumber(ARGV[3])
if most == 0 then return redis.call('HMGET', KEYS[2], unpack(members)) end
local texts, chars = {}, 0
for i, member in ipairs(members) do
  texts[i] = redis.call('HGET', KEYS[2], member)
  chars = chars + #texts[i]
  if chars >= most then break end
end
return texts`

// KEYS: the animals, then each status set. ARGV: none.
const COUNTS = `
local counts = {redis.call('HLEN', KEYS[1])}
for i = 2, #KEYS do counts[i] = redis.call('ZCARD', KEYS[i]) end
return counts`

/**
 * Whether animals fit in place of a store's. k: the store's animals and characters, every store's
 * animals and characters. a: how many animals would replace the store's, their characters, the
 * most animals and characters of every store. Fitting: nil, with what the store has; refused: what
 * every store holds, and what this one does.
 */
const LUA_ROOM = `local function room(k, a)
  local had = redis.call('HLEN', k[1])
  local had_chars = tonumber(redis.call('GET', k[2]) or '0')
  local total = tonumber(redis.call('GET', k[3]) or '0')
  local chars = tonumber(redis.call('GET', k[4]) or '0')
  if total - had + tonumber(a[1]) > tonumber(a[3]) or chars - had_chars + tonumber(a[2]) > tonumber(a[4]) then return {'no_room', total, chars, had} end
  return nil, had, had_chars
end`

// KEYS and ARGV: create's.
const CREATE_MANY = `${LUA_CREATE}
return create(KEYS, ARGV)`

// KEYS and ARGV: room's.
const ROOM = `${LUA_ROOM}
return room(KEYS, ARGV) or {'fits'}`

// KEYS: the store's sets (animals, order, each status), then the same loading keys, then last,
// the store's characters, every store's animals and characters, the stores of keys, the store's
// data and the data's clock. ARGV: how many
// sets, the highest id, how many animals are loaded and their characters, the most animals and
// characters of every store; for a store of a key also its label, the time, the most stores, and
// `adopt` (make it unless in use) or `renew` (back to the animals given if still in use, else nothing).
const SWAP = `${LUA_ABOVE}
${LUA_ROOM}
local n = tonumber(ARGV[1])
local last, chars_key, total_key, all_chars_key, stores, data, clock = KEYS[2 * n + 1], KEYS[2 * n + 2], KEYS[2 * n + 3], KEYS[2 * n + 4], KEYS[2 * n + 5], KEYS[2 * n + 6], KEYS[2 * n + 7]
local function discard() for i = n + 1, 2 * n do redis.call('DEL', KEYS[i]) end end
if ARGV[7] then
  local used = redis.call('ZSCORE', stores, ARGV[7])
  if ARGV[10] == 'renew' then
    if not used then discard() return {'gone'} end
  elseif used then
    discard()
    redis.call('ZADD', stores, ARGV[8], ARGV[7])
    return {'in_use'}
  elseif redis.call('ZCARD', stores) >= tonumber(ARGV[9]) then
    discard()
    return {'no_store'}
  end
end
local refused, had, had_chars = room({KEYS[1], chars_key, total_key, all_chars_key}, {ARGV[3], ARGV[4], ARGV[5], ARGV[6]})
if refused then
  discard()
  return refused
end
for i = 1, n do
  if redis.call('EXISTS', KEYS[n + i]) == 1 then
    redis.call('RENAME', KEYS[n + i], KEYS[i])
    redis.call('PERSIST', KEYS[i])
  else
    redis.call('DEL', KEYS[i])
  end
end
redis.call('INCRBY', total_key, tonumber(ARGV[3]) - had)
redis.call('INCRBY', all_chars_key, tonumber(ARGV[4]) - had_chars)
redis.call('SET', chars_key, ARGV[4])
-- Ids go on after the highest ever handed out, and never below 1.
local highest = redis.call('GET', last) or '0'
if ARGV[2] ~= '' and above(ARGV[2], highest) then redis.call('SET', last, ARGV[2]) elseif not redis.call('GET', last) then redis.call('SET', last, '0') end
if ARGV[7] then redis.call('ZADD', stores, ARGV[8], ARGV[7]) end
-- Every list answer a replica keeps of the store before the load is now of another revision.
redis.call('SET', data, redis.call('INCR', clock))
return {'swapped'}`

/** How a store is swapped in: plainly (the shared store), or as a store of a key made unless in use, or renewed if still in use. */
export type SwapMode = { readonly kind: 'plain' } | { readonly kind: 'adopt' | 'renew'; readonly label: string; readonly at: number; readonly maxStores: number }

/** What a swap did. */
export type Swapped = 'swapped' | 'in_use' | 'gone' | 'no_store' | NoRoom

/** The animals port over Redis but for `renew` (the store's, which knows the fixture), with the swap a store is loaded, made and renewed with. */
export type RedisAnimals = Omit<AnimalsPort, 'renew'> & {
  swap(keys: StoreKeys, load: RedisLoad, mode: SwapMode): Promise<Swapped>
}

/** Options of `redisAnimals`. */
export type RedisAnimalsOptions = {
  readonly call: RedisCall
  /** What reads animals a command of many at a time (`slice`: searches, snapshots, control pages). */
  readonly reads: RedisCall
  readonly keysOf: (label: string) => StoreKeys
  readonly shared: SharedKeys
  readonly limits: BudgetLimits
}

/**
 * Each store's animals in Redis, read and changed by every replica at once: each change one Lua
 * script, which Redis runs whole, before or after any other replica's, so an id is assigned, the
 * animal stored and the budget (animals and characters, every store together) taken in one atomic step.
 */
export function redisAnimals(options: RedisAnimalsOptions): RedisAnimals {
  const { call, reads, keysOf, shared, limits } = options
  const setOf = (keys: StoreKeys, status: PetStatus | undefined): string => (status === undefined ? keys.order : keys.status(status))

  async function swap(keys: StoreKeys, load: RedisLoad, mode: SwapMode): Promise<Swapped> {
    // Checked before anything is written: a store that does not fit leaves nothing behind.
    const room = (await call.script(ROOM, [keys.animal, keys.chars, shared.animals, shared.chars], [String(load.count), String(load.chars), String(limits.maxAnimals), String(limits.maxTextChars)])) as ['fits' | 'no_room', number?, number?, number?]
    if (room[0] === 'no_room') return noRoom(load.count, room[1], room[2], room[3])
    const loading = setsOf(keys).map((key) => `${keys.loading(randomUUID())}${key.slice(key.lastIndexOf(':') + 1)}`)
    try {
      for (const chunk of load.chunks) await writeChunk(call, loading, chunk)
      const modeArgs = mode.kind === 'plain' ? [] : [mode.label, String(mode.at), String(mode.maxStores), mode.kind]
      const reply = (await call.script(SWAP, [...setsOf(keys), ...loading, keys.last, keys.chars, shared.animals, shared.chars, shared.stores, keys.data, shared.dataClock], [String(loading.length), load.highest, String(load.count), String(load.chars), String(limits.maxAnimals), String(limits.maxTextChars), ...modeArgs])) as [Swapped | 'no_room', number?, number?, number?]
      return reply[0] === 'no_room' ? noRoom(load.count, reply[1], reply[2], reply[3]) : reply[0]
    } catch (error) {
      // Nothing half-written stays: the keys of a replacement that did not swap go (or expire).
      await call.command(['DEL', ...loading]).catch(() => undefined)
      throw error
    }
  }

  return {
    counts: (label) => countsIn(call, keysOf(label)),
    offsetOf: async (label, status, id) => Number(await call.command(['ZLEXCOUNT', setOf(keysOf(label), status), '-', `(${memberOf(id)}`])),
    async slice(label, status, offset, count, maxChars) {
      const keys = keysOf(label)
      const texts: string[] = []
      let chars = 0
      for (let start = offset; start < offset + count; ) {
        const asked = Math.min(WRITE_CHUNK, offset + count - start)
        // A bounded read goes in commands of at most READ_CHARS; a short answer is its end only when unbounded.
        const most = maxChars === undefined ? 0 : Math.min(READ_CHARS, maxChars - chars)
        const chunk = (await reads.script(SLICE, [setOf(keys, status), keys.animal], [String(start), String(start + asked - 1), String(most)])) as string[]
        texts.push(...chunk)
        for (const text of chunk) chars += text.length
        start += chunk.length
        if (chunk.length === 0 || (most === 0 && chunk.length < asked) || (maxChars !== undefined && chars >= maxChars)) break
      }
      return texts
    },
    // Each id is durable in Redis as it is handed out.
    reserve: () => ok(undefined),
    async createMany(label, newPets) {
      const { keys, args } = creation(keysOf(label), shared, limits, newPets)
      return mapped(createdOf(await call.script(CREATE_MANY, keys, args), newPets.length), ({ firstId, lastId }) => ({ firstId, lastId }))
    },
    async replace(label, pets, pause) {
      const swapped = await swap(keysOf(label), await prepareLoad(pets, pause), { kind: 'plain' })
      return typeof swapped === 'object' ? fail(swapped) : ok(undefined)
    },
    async held(): Promise<Held> {
      const [animals, chars] = (await call.command(['MGET', shared.animals, shared.chars])) as (string | null)[]
      return { animals: Number(animals ?? 0), chars: Number(chars ?? 0) }
    },
    swap,
  }
}

// As in memory: what every store holds, this one included, and how many more animals the replacement would make.
function noRoom(adding: number, total: unknown, chars: unknown, had: unknown = 0): NoRoom {
  return { kind: 'no_room', adding: adding - Number(had), held: { animals: Number(total), chars: Number(chars) } }
}

/** The keys and arguments of `LUA_CREATE`'s `create` for `newPets` in a store. */
export function creation(keys: StoreKeys, shared: SharedKeys, limits: BudgetLimits, newPets: readonly NewPet[]): { keys: string[]; args: string[] } {
  const args = [String(limits.maxAnimals), String(limits.maxTextChars), String(BigInt(INT64_MAX) - BigInt(newPets.length))]
  for (const newPet of newPets) {
    const after = toPetJson({ ...newPet, id: 0 }).slice('{"id":0'.length) // toPetJson writes the id first
    args.push(after, String('{"id":'.length + after.length), String(newPet.status === undefined ? 0 : PET_STATUSES.indexOf(newPet.status) + 1))
  }
  return { keys: [keys.animal, keys.order, keys.last, ...PET_STATUSES.map(keys.status), keys.chars, shared.animals, shared.chars], args }
}

/** What `create` answered for `adding` animals: the first and last id and the last animal's JSON text, or why none was created. */
export function createdOf(reply: unknown, adding: number): Result<{ readonly firstId: Int64; readonly lastId: Int64; readonly json: string }, Refusal> {
  const [what, first, last, json] = reply as [string, string?, string?, string?]
  if (what === 'no_ids') return fail({ kind: 'no_ids' })
  if (what === 'no_room') return fail(noRoom(adding, first, last))
  return ok({ firstId: toId(first ?? ''), lastId: toId(last ?? ''), json: json ?? '' })
}

async function writeChunk(call: RedisCall, loading: readonly string[], chunk: RedisLoad['chunks'][number]): Promise<void> {
  await Promise.all([
    call.command(['HSET', loading[0] as string, ...chunk.texts]),
    call.command(['ZADD', loading[1] as string, ...chunk.members]),
    ...[...chunk.byStatus].map(([status, members]) => call.command(['ZADD', loading[2 + PET_STATUSES.indexOf(status)] as string, ...members])),
    // A replacement cut off half-way (a replica killed, Redis gone) leaves nothing for ever.
    ...loading.map((key) => call.command(['EXPIRE', key, String(LOADING_TTL_SECONDS)])),
  ])
}

/** How many animals of a store have each status, and how many have none, read in one script. */
async function countsIn(call: RedisCall, keys: StoreKeys): Promise<Counts> {
  const [all = 0, ...byStatus] = (await call.script(COUNTS, [keys.animal, ...PET_STATUSES.map(keys.status)], [])) as number[]
  const counts = Object.fromEntries(PET_STATUSES.map((status, i) => [status, byStatus[i] ?? 0])) as Record<PetStatus, number>
  return { ...counts, none: all - byStatus.reduce((sum, count) => sum + count, 0) }
}

/** An id from Redis's integer text of it: a number while safe, a bigint past 2^53. */
function toId(text: string): Int64 {
  const id = parseInt64Text(text)
  if (id === undefined) throw new Error(`Redis handed out "${text}" as an id`)
  return id
}

/** Serialises `pets` for Redis once: their JSON texts and members of each sorted set, a chunk at a time, pausing between chunks when given `pause`. */
export async function prepareLoad(pets: readonly Pet[], pause?: () => Promise<void>): Promise<RedisLoad> {
  const chunks: RedisLoad['chunks'][number][] = []
  let highest: bigint | undefined
  let chars = 0
  for (let start = 0; start < pets.length; start += WRITE_CHUNK) {
    if (start > 0) await pause?.()
    const texts: string[] = []
    const members: string[] = []
    const byStatus = new Map<PetStatus, string[]>()
    for (const pet of pets.slice(start, start + WRITE_CHUNK)) {
      const member = memberOf(pet.id)
      const text = toPetJson(pet)
      if (highest === undefined || BigInt(pet.id) > highest) highest = BigInt(pet.id)
      chars += text.length
      texts.push(member, text)
      members.push('0', member)
      if (pet.status === undefined) continue
      const ofStatus = byStatus.get(pet.status) ?? []
      ofStatus.push('0', member)
      byStatus.set(pet.status, ofStatus)
    }
    chunks.push({ texts, members, byStatus })
  }
  return { chunks, count: pets.length, chars, highest: highest === undefined ? '' : String(highest) }
}
