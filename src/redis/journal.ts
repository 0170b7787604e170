import { JOURNAL_BYTES_IN_ALL, type JournalEntry, type KeptEntry, partsOf, toEntry } from '../store/journal-entry.js'
import type { JournalPort } from '../store/port.js'
import type { RedisCall } from './connection.js'
import type { SharedKeys } from './keys.js'

/** Entries read from Redis per command while a journal is read: at most a few megabytes. */
const READ_CHUNK = 100

// KEYS: seq, bytes, weights. ARGV: how many entries a scope keeps, the most bytes of every scope,
// where each scope's list is; then for each entry its scope, its base path and its JSON after its seq.
const RECORD = `
local n = (#ARGV - 3) / 3
local first = redis.call('INCRBY', KEYS[1], n) - n
local function forget(scope)
  local old = redis.call('LPOP', ARGV[3] .. '{' .. scope .. '}')
  if not old then
    redis.call('ZREM', KEYS[3], scope)
    return
  end
  redis.call('DECRBY', KEYS[2], #old)
  redis.call('ZINCRBY', KEYS[3], -#old, scope)
end
for i = 1, n do
  local scope = ARGV[3 * i + 1]
  local item = ARGV[3 * i + 2] .. '\\n{"seq":' .. tostring(first + i) .. ARGV[3 * i + 3]
  local length = redis.call('RPUSH', ARGV[3] .. '{' .. scope .. '}', item)
  for _ = 1, length - tonumber(ARGV[1]) do forget(scope) end
  redis.call('INCRBY', KEYS[2], #item)
  redis.call('ZINCRBY', KEYS[3], #item, scope)
end
while tonumber(redis.call('GET', KEYS[2])) > tonumber(ARGV[2]) do
  local heaviest = redis.call('ZREVRANGE', KEYS[3], 0, 0)[1]
  if not heaviest then break end
  forget(heaviest)
end
return first`

// KEYS: bytes, weights. ARGV: where each scope's list is, the scope ('' for every scope).
const CLEAR = `
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
 *   newline, and the entry's JSON as `GET /__control/journal` shows it: scrubbed of every
 *   credential before it leaves the process (Redis never holds a key);
 * - `<prefix>journal:seq`, the last `seq` handed out;
 * - `<prefix>journal:bytes`, what every list holds together, and `<prefix>journal:weights`, what
 *   each scope holds: past `JOURNAL_BYTES_IN_ALL`, the scope that holds the most forgets its
 *   oldest entries, as in memory.
 *
 * Entries recorded in one turn of the event loop go to Redis in one script (a group commit): each
 * request still waits for its own entry to be kept before it is answered. With `size` 0, nothing
 * is written per request.
 */
export function redisJournal(call: RedisCall, keys: SharedKeys, size: number): JournalPort {
  const lists = keys.journalLists
  let batch: { readonly args: string[]; readonly done: Promise<unknown> } | undefined
  const send = (): { readonly args: string[]; readonly done: Promise<unknown> } => {
    const args = [String(size), String(JOURNAL_BYTES_IN_ALL), lists]
    const done = new Promise((resolve) => setImmediate(resolve)).then(() => {
      batch = undefined
      return call.script(RECORD, [keys.journalSeq, keys.journalBytes, keys.journalWeights], args)
    })
    return { args, done }
  }
  async function* read(scope: string): AsyncGenerator<readonly KeptEntry[]> {
    for (let start = 0; ; start += READ_CHUNK) {
      const items = (await call.command(['LRANGE', keys.journal(scope), String(start), String(start + READ_CHUNK - 1)])) as string[]
      yield items.map(keptOf)
      if (items.length < READ_CHUNK) return
    }
  }
  return {
    async record(scope, record) {
      if (size === 0) return
      const text = JSON.stringify(toEntry(partsOf(record, 0))).slice('{"seq":0'.length)
      batch ??= send()
      batch.args.push(scope, record.request.basePath, text)
      await batch.done
    },
    async *chunks(scope) {
      const scopes = scope === undefined ? ((await call.command(['ZRANGE', keys.journalWeights, '0', '-1'])) as string[]) : [scope]
      for (const each of scopes) yield* read(each)
    },
    async clear(scope) {
      await call.script(CLEAR, [keys.journalBytes, keys.journalWeights], [lists, scope ?? ''])
    },
  }
}

/** An item of a journal list: the base path, a newline, the entry's JSON (whose path has the base in front). */
function keptOf(item: string): KeptEntry {
  const newline = item.indexOf('\n')
  const basePath = item.slice(0, newline)
  const text = item.slice(newline + 1)
  const entry = JSON.parse(text) as JournalEntry
  return { seq: entry.seq, method: entry.method, status: entry.status, tenant: entry.tenant, basePath, path: entry.path.slice(basePath.length), text: () => text, entry: () => entry }
}
