import { JOURNAL_BYTES_IN_ALL, type JournalEntry, type KeptEntry, partsOf, toEntry } from '../store/journal-entry.js'
import type { JournalPort } from '../store/port.js'
import type { RedisCall } from './connection.js'
import type { SharedKeys } from './keys.js'

/** Entries read from Redis per command while a journal is read. */
const READ_CHUNK = 100

/** Entries one RPUSH of a batch adds at most (Lua's `unpack` has a bounded stack). */
const PUSH_AT_ONCE = 500

/**
 * The most bytes of entries one command reads (then fewer than `READ_CHUNK`): each is a short turn
 * of Redis and of this replica, so a request waiting behind it on the connection (a probe of
 * /healthz, an API request) waits little.
 */
export const READ_BYTES = 256 * 1024

// KEYS: a scope's list. ARGV: the first place, the most entries, the most bytes: past them, it stops
// after the entry that reached them.
const READ = `
local items = redis.call('LRANGE', KEYS[1], ARGV[1], tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1)
local out, bytes = {}, 0
for i, item in ipairs(items) do
  out[i] = item
  bytes = bytes + #item
  if bytes >= tonumber(ARGV[3]) then break end
end
return out`

/**
 * How far the persisted ceiling of the journal's `seq` runs ahead of the last `seq` handed out:
 * the one write of the journal that Redis keeps on disk, once per this many entries.
 */
export const SEQ_AHEAD = 10_000

// The journal is written with REPL_REPLICA: Redis's replicas get it, its append-only file does not,
// so keeping an entry costs no disk write, nor, under appendfsync always, a flush that the request
// would wait for (docs/deploy.md). Only the ceiling of seq is written to disk, once per SEQ_AHEAD
// entries: when Redis has started again (another run id), seq goes on from the ceiling, above
// every seq handed out before, even from an older copy of the journal (a rewritten file). A user
// that may not run INFO (an ACL without @dangerous) has no run id: seq then goes on from the
// ceiling when its own key is gone (a restart from a file not rewritten since).
// KEYS: seq, ceiling, the run id seq was drawn under.
const LUA_NEXT_SEQ = `
redis.set_repl(redis.REPL_REPLICA)
local function next_seq(n)
  local info = redis.pcall('INFO', 'server')
  local run = type(info) == 'string' and string.match(info, 'run_id:(%x+)') or 'unknown'
  if redis.call('GET', KEYS[3]) ~= run or not redis.call('GET', KEYS[1]) then
    local behind = tonumber(redis.call('GET', KEYS[2]) or '0') - tonumber(redis.call('GET', KEYS[1]) or '0')
    if behind > 0 then redis.call('INCRBY', KEYS[1], behind) end
    redis.call('SET', KEYS[3], run)
  end
  local first = redis.call('INCRBY', KEYS[1], n) - n
  if first + n >= tonumber(redis.call('GET', KEYS[2]) or '0') then
    redis.set_repl(redis.REPL_ALL)
    redis.call('SET', KEYS[2], first + n + ${SEQ_AHEAD})
    redis.set_repl(redis.REPL_REPLICA)
  end
  return first
end`

// KEYS: seq, ceiling, run (LUA_NEXT_SEQ), bytes, weights. ARGV: how many entries a scope keeps, the
// most bytes of every scope, where each scope's list is; then for each entry its scope, its base
// path, what a filter reads of it after its seq (a JSON array's rest), and its JSON after its seq.
// The entries of one scope go in with one RPUSH per PUSH_AT_ONCE, its oldest out with one LPOP, and
// what it holds is counted once per scope: a batch costs Redis a few commands per scope, not per entry.
const RECORD = `${LUA_NEXT_SEQ}
local n = (#ARGV - 3) / 4
local first = next_seq(n)
local size = tonumber(ARGV[1])
local scopes, items, weights = {}, {}, {}
for i = 1, n do
  local scope = ARGV[4 * i]
  local seq = tostring(first + i)
  local item = ARGV[4 * i + 1] .. '\\n[' .. seq .. ',' .. ARGV[4 * i + 2] .. '\\n{"seq":' .. seq .. ARGV[4 * i + 3]
  if not items[scope] then
    scopes[#scopes + 1] = scope
    items[scope] = {}
    weights[scope] = 0
  end
  local list = items[scope]
  list[#list + 1] = item
  weights[scope] = weights[scope] + #item
end
local added = 0
for _, scope in ipairs(scopes) do
  local key = ARGV[3] .. '{' .. scope .. '}'
  local list, length = items[scope], 0
  for from = 1, #list, ${PUSH_AT_ONCE} do
    length = redis.call('RPUSH', key, unpack(list, from, math.min(from + ${PUSH_AT_ONCE} - 1, #list)))
  end
  local weight = weights[scope]
  if length > size then
    for _, old in ipairs(redis.call('LPOP', key, length - size)) do weight = weight - #old end
  end
  added = added + weight
  redis.call('ZINCRBY', KEYS[5], weight, scope)
end
redis.call('INCRBY', KEYS[4], added)
local function forget(scope)
  local old = redis.call('LPOP', ARGV[3] .. '{' .. scope .. '}')
  if not old then
    redis.call('ZREM', KEYS[5], scope)
    return
  end
  redis.call('DECRBY', KEYS[4], #old)
  redis.call('ZINCRBY', KEYS[5], -#old, scope)
end
while tonumber(redis.call('GET', KEYS[4])) > tonumber(ARGV[2]) do
  local heaviest = redis.call('ZREVRANGE', KEYS[5], 0, 0)[1]
  if not heaviest then break end
  forget(heaviest)
end
return first`

// KEYS: bytes, weights. ARGV: where each scope's list is, the scope ('' for every scope). Not to
// the append-only file, as RECORD.
const CLEAR = `
redis.set_repl(redis.REPL_REPLICA)
local scopes = ARGV[2] == '' and redis.call('ZRANGE', KEYS[2], 0, -1) or {ARGV[2]}
for _, scope in ipairs(scopes) do
  local held = tonumber(redis.call('ZSCORE', KEYS[2], scope) or '0')
  redis.call('DEL', ARGV[1] .. '{' .. scope .. '}')
  redis.call('DECRBY', KEYS[1], held)
  redis.call('ZREM', KEYS[2], scope)
end
return #scopes`

/**
 * The journals of a store kept in Redis, so that a request answered by one replica is read through
 * any other. Each scope (a store's label, or every store's for the requests no store took) keeps
 * its last `size` requests, in the order of one sequence every replica draws from:
 *
 * - `<prefix>journal:{<scope>}`, a list of entries, oldest first, each the request's base path, a
 *   newline, what a filter reads (`[seq,method,status,tenant,path below the base]`), a newline, and
 *   the entry's JSON as `GET /__control/journal` shows it: scrubbed of every credential before it
 *   leaves the process (Redis never holds a key). A reader parses the short line alone, and an
 *   entry's JSON only when it is shown;
 * - `<prefix>journal:seq`, the last `seq` handed out, `<prefix>journal:ceiling`, above every one
 *   handed out (`SEQ_AHEAD`), and `<prefix>journal:run`, the run id of the Redis that drew it;
 * - `<prefix>journal:bytes`, what every list holds together, and `<prefix>journal:weights`, what
 *   each scope holds: past `JOURNAL_BYTES_IN_ALL`, the scope that holds the most forgets its
 *   oldest entries, as in memory.
 *
 * Entries recorded in one turn of the event loop go to Redis in one script (a group commit): each
 * request still waits for its own entry to be kept before it is answered. With `size` 0, nothing
 * is written per request. The journal is what was asked lately, not data: it goes to Redis's
 * replicas but not to its append-only file (LUA_NEXT_SEQ), so Redis started again from its file
 * has the animals and rules and an empty journal (or the one of its last rewrite of the file).
 * Pages of entries are read through `reads` (a connection of their own in `serve --store`), so
 * that no request's entry and no /healthz waits behind a page's replies.
 */
export function redisJournal(call: RedisCall, reads: RedisCall, keys: SharedKeys, size: number): JournalPort {
  const lists = keys.journalLists
  let batch: { readonly args: string[]; readonly done: Promise<unknown> } | undefined
  const send = (): { readonly args: string[]; readonly done: Promise<unknown> } => {
    const args = [String(size), String(JOURNAL_BYTES_IN_ALL), lists]
    const done = new Promise((resolve) => setImmediate(resolve)).then(() => {
      batch = undefined
      return call.script(RECORD, [keys.journalSeq, keys.journalCeiling, keys.journalRun, keys.journalBytes, keys.journalWeights], args)
    })
    return { args, done }
  }
  const scopesOf = async (scope: string | undefined): Promise<readonly string[]> => (scope === undefined ? ((await call.command(['ZRANGE', keys.journalWeights, '0', '-1'])) as string[]) : [scope])
  async function* read(scope: string, newest: number | undefined): AsyncGenerator<readonly KeptEntry[]> {
    const skipped = newest === undefined ? 0 : Math.max(0, Number(await call.command(['LLEN', keys.journal(scope)])) - newest)
    for (let start = skipped; ; ) {
      const items = (await reads.script(READ, [keys.journal(scope)], [String(start), String(READ_CHUNK), String(READ_BYTES)])) as string[]
      if (items.length === 0) return
      yield items.map(keptOf)
      start += items.length
    }
  }
  return {
    async record(scope, record) {
      if (size === 0) return
      const entry = toEntry(partsOf(record, 0))
      const { basePath } = record.request
      const filtered = JSON.stringify([entry.method, entry.status, entry.tenant, entry.path.slice(basePath.length)]).slice(1)
      batch ??= send()
      batch.args.push(scope, basePath, filtered, JSON.stringify(entry).slice('{"seq":0'.length))
      await batch.done
    },
    async *chunks(scope, newest) {
      for (const each of await scopesOf(scope)) yield* read(each, newest)
    },
    async size(scope) {
      let size = 0
      for (const each of await scopesOf(scope)) size += Number(await call.command(['LLEN', keys.journal(each)]))
      return size
    },
    async clear(scope) {
      await call.script(CLEAR, [keys.journalBytes, keys.journalWeights], [lists, scope ?? ''])
    },
  }
}

/**
 * An item of a journal list: the base path, a newline, what a filter reads, a newline, the entry's
 * JSON (whose path has the base in front), parsed only when it is shown. (An item kept before the
 * filter's line, base path and JSON alone, is parsed whole.)
 */
function keptOf(item: string): KeptEntry {
  const first = item.indexOf('\n')
  const basePath = item.slice(0, first)
  if (item[first + 1] === '{') {
    const text = item.slice(first + 1)
    const entry = JSON.parse(text) as JournalEntry
    return { seq: entry.seq, method: entry.method, status: entry.status, tenant: entry.tenant, basePath, path: entry.path.slice(basePath.length), text: () => text, entry: () => entry }
  }
  const second = item.indexOf('\n', first + 1)
  const [seq, method, status, tenant, path] = JSON.parse(item.slice(first + 1, second)) as [number, string, number | null, string | null, string]
  const text = item.slice(second + 1)
  return { seq, method, status, tenant, basePath, path, text: () => text, entry: () => JSON.parse(text) as JournalEntry }
}
