import { cutPage, JOURNAL_BYTES_IN_ALL, journalEntryOf, type JournalEntry, type JournalFilter, type JournalPage, type JournalRecord, matches, PAGE_CHUNK } from '../fake/journal.js'
import type { RedisCall } from './connection.js'

/**
 * The journals of `serve --store`, in Redis, so that a request answered by one replica is read
 * through any other. Each scope (a store's label, or `EVERY_STORE` for the requests no store took)
 * keeps its last `size` requests (`JOURNAL_SIZE` by default), in the order of one sequence every replica draws from:
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
  /** How many requests each scope keeps (`--journal-size`); 0 keeps none, and a request writes nothing. */
  readonly size: number
}

/** Entries read from Redis per command while a page is read: at most a few megabytes. */
const READ_CHUNK = 100

// KEYS: seq, bytes, weights. ARGV: how many entries a scope keeps, the most bytes of every scope,
// where each scope's list is; then for each entry its scope, its base path and its JSON after its seq.
const RECORD = `
local n = (#ARGV - 3) / 3
local first = redis.call('INCRBY', KEYS[1], n) - n
local function forget(scope)
  local old = redis.call('LPOP', ARGV[3] .. scope)
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
  local length = redis.call('RPUSH', ARGV[3] .. scope, item)
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
  redis.call('DEL', ARGV[1] .. scope)
  redis.call('DECRBY', KEYS[1], held)
  redis.call('ZREM', KEYS[2], scope)
end
return #scopes`

/** An entry read back: its JSON as kept, and what a filter looks at. */
type Kept = { readonly seq: number; readonly text: string; readonly method: string; readonly status: number | null; readonly tenant: string | null; readonly basePath: string; readonly path: string }

export function redisJournal({ call, prefix, pause, size }: RedisJournalOptions): RedisJournal {
  const keys = { seq: `${prefix}journal:seq`, bytes: `${prefix}journal:bytes`, weights: `${prefix}journal:weights`, list: `${prefix}journal:` }
  // Entries recorded in one turn of the event loop go to Redis in one script (a group commit): each
  // request still waits for its own entry to be kept before it is answered.
  let batch: { readonly args: string[]; readonly done: Promise<unknown> } | undefined
  const send = (): { readonly args: string[]; readonly done: Promise<unknown> } => {
    const args = [String(size), String(JOURNAL_BYTES_IN_ALL), keys.list]
    const done = new Promise((resolve) => setImmediate(resolve)).then(() => {
      batch = undefined
      return call.script(RECORD, [keys.seq, keys.bytes, keys.weights], args)
    })
    return { args, done }
  }

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
      if (size === 0) return
      const text = JSON.stringify(journalEntryOf(record, 0)).slice('{"seq":0'.length)
      batch ??= send()
      batch.args.push(scope, record.request.basePath, text)
      await batch.done
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
