import { cutPage, JOURNAL_BYTES_IN_ALL, JOURNAL_SIZE, journalEntryOf, type JournalEntry, type JournalFilter, type JournalPage, type JournalRecord, matches, PAGE_CHUNK } from '../fake/journal.js'
import type { RedisCall } from './connection.js'

/**
 * The journals of `serve --store`, in Redis, so that a request answered by one replica is read
 * through any other. Each scope (a store's label, or `EVERY_STORE` for the requests no store took)
 * keeps its last `JOURNAL_SIZE` requests, in the order of one sequence every replica draws from:
 *
 * - `<prefix>journal:<scope>`, a list of entries, oldest first, each the request's base path, a
 *   newline, and the entry's JSON as `GET /__control/journal` shows it: scrubbed of every
 *   credential before it leaves the process (Redis never holds a key);
 * - `<prefix>journal:seq`, the last `seq` handed out;
 * - `<prefix>journal:bytes`, what every list holds together, and `<prefix>journal:weights`, what
 *   each scope holds: past `JOURNAL_BYTES_IN_ALL`, the scope that holds the most forgets its
 *   oldest entries, as in memory.
 */
export type RedisJournal = {
  /** Keeps one request in its scope's journal, numbered after every other replica's. */
  record(scope: string, record: JournalRecord): Promise<void>
  /** One page of a scope's journal, or of every scope's together (`undefined`). */
  page(scope: string | undefined, filter: JournalFilter): Promise<JournalPage>
  /** Forgets a scope's entries, or every scope's (`undefined`). */
  clear(scope: string | undefined): Promise<void>
}

/** Options of `redisJournal`. */
export type RedisJournalOptions = {
  readonly call: RedisCall
  readonly prefix: string
  /** Lets other work run while a page is read and parsed. */
  readonly pause: () => Promise<void>
}

/** Entries read from Redis per command while a page is read: at most a few megabytes. */
const READ_CHUNK = 100

// KEYS: seq, the scope's list, bytes, weights. ARGV: scope, base path, the entry's JSON after its
// seq, how many entries a scope keeps, the most bytes of every scope, where each scope's list is.
const RECORD = `
local seq = redis.call('INCR', KEYS[1])
local item = ARGV[2] .. '\\n{"seq":' .. seq .. ARGV[3]
redis.call('RPUSH', KEYS[2], item)
redis.call('INCRBY', KEYS[3], #item)
redis.call('ZINCRBY', KEYS[4], #item, ARGV[1])
local function forget(scope, list)
  local old = redis.call('LPOP', list)
  if not old then
    redis.call('ZREM', KEYS[4], scope)
    return
  end
  redis.call('DECRBY', KEYS[3], #old)
  redis.call('ZINCRBY', KEYS[4], -#old, scope)
end
if redis.call('LLEN', KEYS[2]) > tonumber(ARGV[4]) then forget(ARGV[1], KEYS[2]) end
while tonumber(redis.call('GET', KEYS[3])) > tonumber(ARGV[5]) do
  local heaviest = redis.call('ZREVRANGE', KEYS[4], 0, 0)[1]
  if not heaviest then break end
  forget(heaviest, ARGV[6] .. heaviest)
end
return seq`

// KEYS: bytes, weights. ARGV: where each scope's list is, the scope ('' for every scope).
const CLEAR = `
local scopes = ARGV[2] == '' and redis.call('ZRANGE', KEYS[2], 0, -1) or {ARGV[2]}
for _, scope in ipairs(scopes) do
  local held = tonumber(redis.call('ZSCORE', KEYS[2], scope) or '0')
  redis.call('DEL', ARGV[1] .. scope)
  redis.call('DECRBY', KEYS[1], held)
  redis.call('ZREM', KEYS[2], scope)
end
return #scopes`

/** An entry read back: its JSON as kept, and what a filter looks at. */
type Kept = { readonly seq: number; readonly text: string; readonly method: string; readonly status: number | null; readonly tenant: string | null; readonly basePath: string; readonly path: string }

export function redisJournal({ call, prefix, pause }: RedisJournalOptions): RedisJournal {
  const keys = { seq: `${prefix}journal:seq`, bytes: `${prefix}journal:bytes`, weights: `${prefix}journal:weights`, list: `${prefix}journal:` }

  async function kept(scope: string, filter: JournalFilter): Promise<Kept[]> {
    const found: Kept[] = []
    for (let start = 0; ; start += READ_CHUNK) {
      const items = (await call.command(['LRANGE', keys.list + scope, String(start), String(start + READ_CHUNK - 1)])) as string[]
      for (const [i, item] of items.entries()) {
        if (i % PAGE_CHUNK === PAGE_CHUNK - 1) await pause()
        const entry = keptOf(item)
        if (matches(entry, filter)) found.push(entry)
      }
      if (items.length < READ_CHUNK) return found
    }
  }

  return {
    async record(scope, record) {
      const text = JSON.stringify(journalEntryOf(record, 0)).slice('{"seq":0'.length)
      await call.script(RECORD, [keys.seq, keys.list + scope, keys.bytes, keys.weights], [scope, record.request.basePath, text, String(JOURNAL_SIZE), String(JOURNAL_BYTES_IN_ALL), keys.list])
    },
    async page(scope, filter) {
      const scopes = scope === undefined ? ((await call.command(['ZRANGE', keys.weights, '0', '-1'])) as string[]) : [scope]
      const matching: Kept[] = []
      for (const each of scopes) matching.push(...(await kept(each, filter)))
      if (scopes.length > 1) matching.sort((a, b) => a.seq - b.seq)
      return cutPage(matching, filter, (entry) => entry.text, pause)
    },
    async clear(scope) {
      await call.script(CLEAR, [keys.bytes, keys.weights], [keys.list, scope ?? ''])
    },
  }
}

/** An item of a journal list: the base path, a newline, the entry's JSON (whose path has the base in front). */
function keptOf(item: string): Kept {
  const newline = item.indexOf('\n')
  const basePath = item.slice(0, newline)
  const text = item.slice(newline + 1)
  const entry = JSON.parse(text) as JournalEntry
  return { seq: entry.seq, text, method: entry.method, status: entry.status, tenant: entry.tenant, basePath, path: entry.path.slice(basePath.length) }
}
