import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { type JournalFilter, readJournalPage } from '../../src/fake/journal-reader.js'
import { nextTurn } from '../../src/fake/next-turn.js'
import { connectRedis, type RedisConnection } from '../../src/redis/connection.js'
import { READ_BYTES, redisJournal, SEQ_AHEAD } from '../../src/redis/journal.js'
import { sharedKeys } from '../../src/redis/keys.js'
import { REDACTED } from '../../src/service/credentials.js'
import { isDropped } from '../../src/service/http.js'
import { JOURNAL_BYTES_IN_ALL, JOURNAL_SIZE, type JournalRecord } from '../../src/store/journal-entry.js'
import { type JournalPort, StoreUnavailable } from '../../src/store/port.js'
import { plainRequest } from '../support/core-fake.js'
import { redisReplica } from '../support/fake-over.js'
import { useRedis } from '../support/redis-harness.js'
import { hasRedis } from '../support/redis-server.js'

const record = (path: string, key = 'secret-key-1'): JournalRecord => ({
  request: plainRequest({ path, headers: { authorization: `Bearer ${key}` }, search: `api_key=${key}` }),
  receivedAt: Date.UTC(2026, 0, 1),
  tenant: 'shared',
  status: 200,
  forced: false,
  outcome: 'answered',
  delayMs: 0,
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: `{"echo":"${key}"}` },
})

type Entry = { seq: number; path: string; query: string; headers: Record<string, string>; response: { body: string } }
const entriesOf = (texts: readonly string[]): Entry[] => texts.map((text) => JSON.parse(text) as Entry)
const journalOver = (connection: RedisConnection, prefix: string, size = JOURNAL_SIZE) => redisJournal(connection, connection, sharedKeys(prefix), size)
/** A page of a scope's journal (every scope's: `undefined`), as the control API reads it. */
const page = (journal: JournalPort, scope: string | undefined, filter: JournalFilter) => readJournalPage(journal, scope, filter, nextTurn)

// The journal of `serve --store` against a real redis-server: what the in-memory journal bounds, bounded in Redis.
describe.skipIf(!hasRedis)('the journal in Redis', () => {
  const harness = useRedis()
  let prefixes = 0

  it(`keeps a scope's last ${JOURNAL_SIZE} requests, numbered on across scopes and replicas, scrubbed of every credential before Redis holds them`, async () => {
    const prefix = `j${++prefixes}:`
    const [one, two] = [journalOver(await harness.connect(), prefix), journalOver(await harness.connect(), prefix)]
    for (let i = 1; i <= JOURNAL_SIZE + 1; i++) await (i % 2 === 0 ? one : two).record('a', record(`/pets/${i}`))
    await one.record('b', record('/pets/b'))
    const a = await page(two, 'a', {})
    expect(a.total).toBe(JOURNAL_SIZE)
    const entries = entriesOf(a.texts)
    // The oldest went; the rest are in order.
    expect(entries[0]).toMatchObject({ seq: 2, path: '/v1/pets/2' })
    expect(entries.at(-1)).toMatchObject({ seq: JOURNAL_SIZE + 1, path: `/v1/pets/${JOURNAL_SIZE + 1}` })
    expect(entries.every((entry, i) => i === 0 || entry.seq === (entries[i - 1]?.seq ?? 0) + 1)).toBe(true)
    expect(entriesOf((await page(one, undefined, { limit: 2 })).texts).map((entry) => entry.path)).toEqual([`/v1/pets/${JOURNAL_SIZE + 1}`, '/v1/pets/b'])
    const stored = (await (await harness.connect()).command(['LRANGE', `${prefix}journal:{b}`, '0', '-1'])) as string[]
    expect(stored).toHaveLength(1)
    expect(stored[0]).not.toContain('secret-key-1')
    expect(entriesOf(a.texts)[0]).toMatchObject({ query: `api_key=${encodeURIComponent(REDACTED)}`, headers: { authorization: `Bearer ${REDACTED}` }, response: { body: `{"echo":"${REDACTED}"}` } })
  })

  it(`keeps every scope together within ${JOURNAL_BYTES_IN_ALL} bytes: past it the scope holding the most forgets its oldest entries, and the others keep theirs`, async () => {
    const prefix = `j${++prefixes}:`
    const connection = await harness.connect()
    const journal = journalOver(connection, prefix)
    for (let i = 1; i <= 3; i++) await journal.record('heavy', record(`/pets/${i}`))
    await journal.record('light', record('/pets/light'))
    const held = Number(await connection.command(['GET', `${prefix}journal:bytes`]))
    const [first] = (await connection.command(['LRANGE', `${prefix}journal:{heavy}`, '0', '0'])) as string[]
    // As if 'heavy' held nearly all the room: the next entry, of 'light', brings the total past it by less than one entry.
    const filler = JOURNAL_BYTES_IN_ALL - held - 30
    await connection.command(['INCRBY', `${prefix}journal:bytes`, String(filler)])
    await connection.command(['ZINCRBY', `${prefix}journal:weights`, String(filler), 'heavy'])
    await journal.record('light', record('/pets/light-2'))
    expect(entriesOf((await page(journal, 'heavy', {})).texts).map((entry) => entry.path)).toEqual(['/v1/pets/2', '/v1/pets/3'])
    expect((await page(journal, 'light', {})).total).toBe(2)
    // Each item is the base path, what a filter reads and the entry, each on its line: the new one counted, the oldest of 'heavy' given back.
    const [added] = (await connection.command(['LRANGE', `${prefix}journal:{light}`, '-1', '-1'])) as string[]
    expect(added).toBe(`/v1\n[${JSON.parse(added?.split('\n')[2] ?? '{}').seq},"GET",200,"shared","/pets/light-2"]\n${(await page(journal, 'light', {})).texts[1]}`)
    expect(Number(await connection.command(['GET', `${prefix}journal:bytes`]))).toBe(JOURNAL_BYTES_IN_ALL - 30 + (added?.length ?? 0) - (first?.length ?? 0))
    // Cleared, every scope gives its room back.
    await journal.clear('light')
    expect(Number(await connection.command(['GET', `${prefix}journal:bytes`]))).toBe(Number(await connection.command(['ZSCORE', `${prefix}journal:weights`, 'heavy'])))
    await journal.clear(undefined)
    expect(await connection.command(['GET', `${prefix}journal:bytes`])).toBe('0')
    expect((await page(journal, undefined, {})).total).toBe(0)
  })

  it('writes the entries of one turn in one script, per scope, each keeping its last n in order, every byte counted', async () => {
    const prefix = `j${++prefixes}:`
    const connection = await harness.connect()
    const scripts: string[] = []
    const counted = { ...connection, script: (source: string, keys: readonly string[], args: readonly string[]) => (scripts.push(source), connection.script(source, keys, args)) }
    const journal = journalOver(counted, prefix, 3)
    await journal.record('a', record('/pets/a0'))
    // Fourteen entries of two scopes, interleaved, recorded in one turn: 'a' goes 8 past its 3, 'b' 1 past.
    await Promise.all(Array.from({ length: 14 }, (_, i) => journal.record(i % 3 === 2 ? 'b' : 'a', record(`/pets/${i % 3 === 2 ? 'b' : 'a'}${i + 1}`))))
    expect(scripts.filter((source) => source.includes('RPUSH'))).toHaveLength(2)
    expect(entriesOf((await page(journal, 'a', {})).texts).map((entry) => entry.path)).toEqual(['/v1/pets/a11', '/v1/pets/a13', '/v1/pets/a14'])
    const b = entriesOf((await page(journal, 'b', {})).texts)
    expect(b.map((entry) => entry.path)).toEqual(['/v1/pets/b6', '/v1/pets/b9', '/v1/pets/b12'])
    expect(b.map((entry) => entry.seq)).toEqual([7, 10, 13])
    const held = async (scope: string) => ((await connection.command(['LRANGE', `${prefix}journal:{${scope}}`, '0', '-1'])) as string[]).reduce((sum, item) => sum + item.length, 0)
    const [a, bBytes] = [await held('a'), await held('b')]
    expect(Number(await connection.command(['ZSCORE', `${prefix}journal:weights`, 'a']))).toBe(a)
    expect(Number(await connection.command(['ZSCORE', `${prefix}journal:weights`, 'b']))).toBe(bBytes)
    expect(Number(await connection.command(['GET', `${prefix}journal:bytes`]))).toBe(a + bBytes)
    // A turn of more entries than one RPUSH takes (Lua's unpack is bounded) goes in several, in order.
    const many = journalOver(connection, prefix, 2000)
    await Promise.all(Array.from({ length: 1001 }, (_, i) => many.record('c', record(`/pets/c${i}`))))
    const c = entriesOf((await page(many, 'c', { limit: 1001 })).texts)
    expect(c.map((entry) => entry.path)).toEqual(Array.from({ length: 1001 }, (_, i) => `/v1/pets/c${i}`))
  })

  it('writes nothing to Redis per request with a journal size of 0 (--journal-size 0), and keeps the last n with n', async () => {
    for (const [size, kept] of [[0, 0], [2, 2]] as const) {
      const connection = await harness.connect()
      const scripts: string[] = []
      const counted = { ...connection, script: (source: string, keys: readonly string[], args: readonly string[]) => (scripts.push(source), connection.script(source, keys, args)) }
      const { core } = await redisReplica(counted, `j${++prefixes}:`, { pets: [], journalSize: size })
      for (let i = 0; i < 3; i++) await core.handle(plainRequest({ path: `/pets/${i}`, headers: { authorization: 'Bearer k' } }))
      expect((await page(core.store.journal, undefined, {})).total, `size ${size}`).toBe(kept)
      expect(scripts.filter((source) => source.includes('RPUSH')).length > 0, `size ${size}`).toBe(size > 0)
    }
  })

  it('answers a request whose journal entry Redis could not keep: the request was served, its entry is lost', async () => {
    const connection = await harness.connect()
    const failing = {
      ...connection,
      script: (source: string, keys: readonly string[], args: readonly string[]) => (source.includes('RPUSH') ? Promise.reject(new StoreUnavailable('The store at redis://test did not answer: gone.')) : connection.script(source, keys, args)),
    }
    const { core, store } = await redisReplica(failing, `j${++prefixes}:`, { pets: [] })
    const reply = await core.handle(plainRequest({ method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: new TextEncoder().encode('{"name":"Kept","categoryId":1}') }))
    expect(!isDropped(reply) && reply.status).toBe(201)
    expect((await store.health()).animals).toBe(1)
    expect((await page(store.journal, undefined, {})).total).toBe(0)
  })

  it(`reads each scope's newest entries alone for a page of the most recent, in steps of at most ${READ_BYTES} bytes, and answers what reading every entry answers`, async () => {
    const connection = await harness.connect()
    const read: number[] = []
    const counted = {
      ...connection,
      async script(source: string, keys: readonly string[], args: readonly string[]) {
        const reply = await connection.script(source, keys, args)
        if (source.includes("'LRANGE'")) read.push((reply as string[]).length, ...(reply as string[]).map((item) => -item.length))
        return reply
      },
    }
    const journal = journalOver(counted, `j${++prefixes}:`)
    // Entries of 16 KB (a header no credential's name), so that a step of 100 would be 1.6 MB.
    const heavy = (path: string): JournalRecord => ({ ...record(path), request: plainRequest({ path, headers: { authorization: 'Bearer secret-key-1', 'x-trace': 't'.repeat(16_000) } }) })
    for (let i = 1; i <= 300; i++) await journal.record(i % 3 === 0 ? 'b' : 'a', heavy(`/pets/${i}`))
    const sizes = () => read.filter((count) => count >= 0)
    read.length = 0
    const newest = await page(journal, undefined, { limit: 20 })
    // Each scope's newest 20, and nothing older, in steps of at most READ_BYTES.
    expect(sizes().reduce((sum, count) => sum + count, 0)).toBe(40)
    expect(sizes().every((count) => count <= Math.ceil(READ_BYTES / 16_000))).toBe(true)
    // A filter that takes every entry reads them all, and picks the same page.
    read.length = 0
    const everything = await page(journal, undefined, { limit: 20, method: 'GET' })
    expect(sizes().reduce((sum, count) => sum + count, 0)).toBe(300)
    expect(newest).toEqual(everything)
    expect(newest).toMatchObject({ total: 300, more: false, next: 300 })
    expect(entriesOf(newest.texts).map((entry) => entry.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 281 + i))
    // No step reads more than READ_BYTES and one entry.
    const longest = Math.max(...read.filter((count) => count < 0).map((length) => -length))
    let step = 0
    for (const count of read) {
      if (count >= 0) step = 0
      else step += -count
      expect(step).toBeLessThan(READ_BYTES + longest)
    }
  })
})

describe.skipIf(!hasRedis)("the journal and Redis's append-only file", () => {
  const harness = useRedis()

  /** Every file of the append-only file's folder, as text. */
  const onDisk = (): string => readdirSync(join(harness.redis().dir, 'appendonlydir')).map((file) => readFileSync(join(harness.redis().dir, 'appendonlydir', file), 'latin1')).join('')
  const restarted = async (connection: RedisConnection): Promise<void> => {
    await harness.redis().stop()
    await harness.redis().restart()
    await vi.waitFor(() => expect(connection.ready()).toBe(true), { timeout: 5000, interval: 20 })
  }
  const seqs = async (journal: JournalPort): Promise<number[]> => entriesOf((await page(journal, 'a', {})).texts).map((entry) => entry.seq)

  it(`keeps entries out of the file (no disk write per request), and Redis started again goes on above every seq handed out, from a rewritten file too (a ceiling ${SEQ_AHEAD} ahead)`, async () => {
    const connection = await harness.connect()
    const journal = journalOver(connection, 'aof:')
    for (let i = 1; i <= 3; i++) await journal.record('a', record(`/pets/kept-${i}`))
    expect(await seqs(journal)).toEqual([1, 2, 3])
    expect(onDisk()).not.toContain('/pets/kept-')
    expect(onDisk()).toContain('aof:journal:ceiling')
    // Started again from its file: no entry, and the next seq above the 3 handed out.
    await restarted(connection)
    expect(await seqs(journal)).toEqual([])
    await journal.record('a', record('/pets/after-restart'))
    expect(await seqs(journal)).toEqual([SEQ_AHEAD + 2])
    // A rewritten file holds the journal as it was then: started from it, seq still goes on above the last handed out.
    await connection.command(['BGREWRITEAOF'])
    await vi.waitFor(async () => expect(String(await connection.command(['INFO', 'persistence']))).toMatch(/aof_rewrite_in_progress:0[\s\S]*aof_rewrite_scheduled:0/), { timeout: 10_000, interval: 50 })
    await journal.record('a', record('/pets/after-rewrite'))
    expect(await seqs(journal)).toEqual([SEQ_AHEAD + 2, SEQ_AHEAD + 3])
    await restarted(connection)
    expect(await seqs(journal)).toEqual([SEQ_AHEAD + 2])
    await journal.record('a', record('/pets/after-second-restart'))
    const [, last] = await seqs(journal)
    expect(last).toBeGreaterThan(SEQ_AHEAD + 3)
  })

  it('keeps and numbers entries for a Redis user that may not run INFO (an ACL without @dangerous)', async () => {
    const admin = await harness.connect()
    await admin.command(['ACL', 'SETUSER', 'no-info', 'on', '>no-info-pass', '~*', '&*', '+@all', '-@dangerous'])
    const url = new URL(harness.redis().url)
    url.username = 'no-info'
    url.password = 'no-info-pass'
    const limited = await connectRedis({ url: url.toString(), timeoutMs: 2000 })
    try {
      await expect(limited.command(['INFO', 'server'])).rejects.toThrow(/NOPERM/)
      const journal = journalOver(limited, 'acl:')
      for (let i = 1; i <= 3; i++) await journal.record('a', record(`/pets/acl-${i}`))
      expect(await seqs(journal)).toEqual([1, 2, 3])
    } finally {
      await limited.close()
    }
  })
})
