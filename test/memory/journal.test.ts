import { expect, it } from 'vitest'
import type { Fields, PlainRequest } from '../../src/service/http.js'
import { execFileSync } from 'node:child_process'
import { createMemoryJournal, ENTRY_BYTES, type MemoryJournal, SHARED_ANSWER_CHARS } from '../../src/memory/journal.js'
import { BODY_LIMIT, type JournalEntry, type JournalRecord, type KeptEntry } from '../../src/store/journal-entry.js'
import { JOURNAL_PAGE_CHARS, PAGE_CHUNK, readJournalPage } from '../../src/fake/journal-reader.js'

/** One scope of a journal in memory: what a store's requests go to. */
type Scope = { record(record: JournalRecord): void; items(): KeptEntry[]; clear(): void }

const scopeOf = (journal: MemoryJournal, scope: string): Scope => ({
  record: (record) => journal.record(scope, record),
  items: () => [...journal.chunks(scope)].flat(),
  clear: () => journal.clear(scope),
})

/** A journal in memory of `size` requests a scope, and its one scope. */
const createJournal = (size: number): Scope => scopeOf(createMemoryJournal(size), 'shared')

/** What a scope's journal kept, as the journal shows it. */
const entriesOf = (journal: Scope): JournalEntry[] => journal.items().map((kept) => kept.entry())

const request = (path: string, headers: Fields, body?: Uint8Array): PlainRequest => ({
  method: body === undefined ? 'GET' : 'POST',
  path,
  basePath: '/v1',
  search: `q=${path.length}`,
  headers,
  body,
})

/** Records a GET of `path` answered by the API into `journal`, with the answer `body` when given. */
const recordAnswer = (journal: Scope, body?: string, path = '/pets') =>
  journal.record({
    request: request(path, {}),
    receivedAt: 0,
    tenant: null,
    status: 200,
    forced: false,
    outcome: 'answered',
    delayMs: 0,
    ...(body === undefined ? {} : { response: { status: 200, headers: {}, body } }),
  })

// The journal keeps a value equal to one seen a moment before as that one (see createRecentValues):
// whatever the mix of repeated and new values, each entry must still show exactly its own request.
it('shows each request exactly as it came, however its paths, headers and bodies repeat', () => {
  const journal = createJournal(100)
  const sent: PlainRequest[] = []
  for (let i = 0; i < 60; i++) {
    // Twelve distinct values of each field, more than are remembered, in an order that repeats some soon and some late.
    const n = (i * 7) % 12
    const headers = n % 3 === 0 ? { accept: 'application/json' } : { accept: 'application/json', 'x-client': `c${n}` }
    const body = i % 2 === 0 ? undefined : new TextEncoder().encode(`{"name":"Pet ${n}"}`)
    const each = request(`/pets/${n}`, headers, body)
    sent.push(each)
    journal.record({ request: each, receivedAt: 0, tenant: null, status: 200, forced: false, outcome: 'answered', delayMs: 0 })
  }
  const entries = entriesOf(journal)
  expect(entries).toHaveLength(60)
  entries.forEach((entry, i) => {
    const each = sent[i] as PlainRequest
    expect(entry.path).toBe(`/v1${each.path}`)
    expect(entry.query).toBe(each.search)
    expect(entry.headers).toEqual(each.headers)
    expect(entry.body).toBe(each.body === undefined ? undefined : new TextDecoder().decode(each.body))
  })
})

it('keeps its own copy of a body, cut at BODY_LIMIT, whatever the transport does with its bytes later', () => {
  const journal = createJournal(10)
  const bytes = new TextEncoder().encode(`"${'x'.repeat(BODY_LIMIT + 10)}"`)
  // Node hands bodies over as Buffers, whose slice() shares memory instead of copying.
  const short = Buffer.from('{"name":"Rex"}')
  for (const body of [bytes, short, short]) {
    journal.record({ request: request('/pets', {}, body), receivedAt: 0, tenant: null, status: 201, forced: false, outcome: 'answered', delayMs: 0 })
  }
  bytes.fill(0)
  short.fill(0)
  const [long, first, second] = entriesOf(journal)
  expect(long?.body).toBe(`"${'x'.repeat(BODY_LIMIT - 1)}`)
  expect(first?.body).toBe('{"name":"Rex"}')
  expect(second?.body).toBe('{"name":"Rex"}')
})

it('tells apart values that look alike: a body that begins another, bodies of one length with no byte in common, headers with the same names and no value in common', () => {
  const journal = createJournal(10)
  const bodies = ['{"a":1}', '{"a":1}\n', '{"a":1}', '[2,3,4]', '[5,6,7]']
  const headers = [{ accept: 'a', 'x-client': 'b' }, { accept: 'c', 'x-client': 'd' }, { accept: 'a', 'x-client': 'b' }, { accept: 'c' }, {}]
  bodies.forEach((body, i) => {
    const each = request('/pets', headers[i] as Fields, new TextEncoder().encode(body))
    journal.record({ request: each, receivedAt: 0, tenant: null, status: 201, forced: false, outcome: 'answered', delayMs: 0 })
  })
  const entries = entriesOf(journal)
  expect(entries.map((entry) => entry.body)).toEqual(bodies)
  expect(entries.map((entry) => entry.headers)).toEqual(headers)
})

it('redacts credentials by header name, keeping the scheme of Authorization and Proxy-Authorization', () => {
  const journal = createJournal(20)
  const sent: [Fields, Fields][] = [
    [{ authorization: 'Bearer k-123' }, { authorization: 'Bearer [redacted]' }],
    [{ 'proxy-authorization': 'Basic dXNlcjpwYXNz' }, { 'proxy-authorization': 'Basic [redacted]' }],
    // Only a known scheme shows, as sent; a first word that is none may be the key's own.
    [{ authorization: 'token t-1' }, { authorization: 'token [redacted]' }],
    [{ authorization: 'SCRAM-SHA-256 data' }, { authorization: 'SCRAM-SHA-256 [redacted]' }],
    [{ authorization: 'k-123' }, { authorization: '[redacted]' }],
    [{ authorization: 'real KEY-abcdef123' }, { authorization: '[redacted]' }],
    [{ authorization: '1abc secret' }, { authorization: '[redacted]' }],
    [{ authorization: `A${'b'.repeat(19)} secret` }, { authorization: '[redacted]' }],
    [{ authorization: 'X-Custom-9 secret' }, { authorization: '[redacted]' }],
    [
      { cookie: 's=1', 'set-cookie': 's=2', 'x-api-key': 'k', 'x-control-token': 't', 'x-session-id': 'i', accept: 'application/json' },
      { cookie: '[redacted]', 'set-cookie': '[redacted]', 'x-api-key': '[redacted]', 'x-control-token': '[redacted]', 'x-session-id': '[redacted]', accept: 'application/json' },
    ],
    // Only the two Authorization headers keep a scheme; any other credential is redacted whole.
    [
      { 'x-auth-token': 'Bearer t-1', cookie: 'Session s-2' },
      { 'x-auth-token': '[redacted]', cookie: '[redacted]' },
    ],
  ]
  for (const [headers] of sent) journal.record({ request: request('/pets', headers), receivedAt: 0, tenant: null, status: 200, forced: false, outcome: 'answered', delayMs: 0 })
  expect(entriesOf(journal).map((entry) => entry.headers)).toEqual(sent.map(([, shown]) => shown))
})

it('shows the answer the client was given: its headers and its body, the body cut at BODY_LIMIT characters, a dropped one with none', () => {
  const journal = createJournal(10)
  const long = `[${'"é",'.repeat(BODY_LIMIT)}"end"]`
  const record = (status: number | null, response?: { status: number; headers: Fields; body?: string }) =>
    journal.record({ request: request('/pets', {}), receivedAt: 0, tenant: null, status, forced: false, outcome: 'answered', delayMs: 0, ...(response === undefined ? {} : { response }) })
  record(200, { status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id":1}]' })
  record(200, { status: 200, headers: {}, body: long })
  record(204, { status: 204, headers: { 'x-one': '1' } })
  record(null)
  const [short, cut, empty, dropped] = entriesOf(journal)
  expect(short?.response).toEqual({ headers: { 'content-type': 'application/json' }, body: '[{"id":1}]' })
  expect(cut?.response?.body).toBe(long.slice(0, BODY_LIMIT))
  expect(empty?.response).toEqual({ headers: { 'x-one': '1' } })
  expect(dropped?.response).toBeUndefined()
})

it('keeps a credential out of the answer shown: by header name as in the request, and the request\'s own credentials wherever the answer echoes them', () => {
  const journal = createJournal(10)
  const sent = request('/pets', { authorization: 'Bearer sekrit-key-123', cookie: 'session=COOKIESECRET' })
  const body = '{"name":"Bearer sekrit-key-123","note":"session=COOKIESECRET"}'
  journal.record({
    request: { ...sent, search: 'api_key=QUERYSECRET1' },
    receivedAt: 0,
    tenant: null,
    status: 200,
    forced: false,
    outcome: 'answered',
    delayMs: 0,
    response: { status: 200, headers: { 'set-cookie': 'session=x', 'x-echo': 'QUERYSECRET1' }, body },
  })
  const [entry] = entriesOf(journal)
  expect(entry?.response).toEqual({
    headers: { 'set-cookie': '[redacted]', 'x-echo': '[redacted]' },
    body: '{"name":"[redacted]","note":"[redacted]"}',
  })
})

it('leaves no part of a credential that the cut at BODY_LIMIT split: the end a spelling of it could start in goes, in the body and the answer; an uncut one stays whole', () => {
  const journal = createJournal(10)
  const key = 'split-key-0123456789'
  // Twelve characters of spelling a character at most (a 4-byte one percent-encoded), of the longest credential: the header's value.
  const reach = `Bearer ${key}`.length * 12
  const straddling = `${'a'.repeat(BODY_LIMIT - 8)}${key}${'z'.repeat(100)}`
  const sent = { ...request('/pets', { authorization: `Bearer ${key}` }, new TextEncoder().encode(straddling)), search: '' }
  journal.record({ request: sent, receivedAt: 0, tenant: null, status: 200, forced: false, outcome: 'answered', delayMs: 0, response: { status: 200, headers: {}, body: straddling } })
  const whole = `${'a'.repeat(BODY_LIMIT - key.length)}${key}`
  journal.record({ request: { ...sent, body: new TextEncoder().encode(whole) }, receivedAt: 0, tenant: null, status: 200, forced: false, outcome: 'answered', delayMs: 0, response: { status: 200, headers: {}, body: whole } })
  const [cut, uncut] = entriesOf(journal)
  expect(cut?.body).toBe('a'.repeat(BODY_LIMIT - reach + 1))
  expect(cut?.response?.body).toBe('a'.repeat(BODY_LIMIT - reach + 1))
  expect(uncut?.body).toBe(`${'a'.repeat(BODY_LIMIT - key.length)}[redacted]`)
  expect(uncut?.response?.body).toBe(`${'a'.repeat(BODY_LIMIT - key.length)}[redacted]`)
})

it('says who chose each answer', () => {
  const journal = createJournal(10)
  for (const outcome of ['answered', 'prefer', 'forced', 'delayed', 'dropped'] as const) {
    journal.record({ request: request('/pets', {}), receivedAt: 0, tenant: null, status: outcome === 'dropped' ? null : 200, forced: outcome !== 'answered', outcome, delayMs: 0 })
  }
  expect(entriesOf(journal).map((entry) => [entry.outcome, entry.forced])).toEqual([['answered', false], ['prefer', true], ['forced', true], ['delayed', true], ['dropped', true]])
})

it('holds at most SHARED_ANSWER_CHARS of answers by reference: a thousand answers of 1 Mi characters leave the heap small', () => {
  // In a child with --expose-gc, so that what is measured is what the journal keeps alive.
  const script = `
    import { createMemoryJournal } from ${JSON.stringify(new URL('../../dist/memory/journal.js', import.meta.url).href)}
    import { BODY_LIMIT } from ${JSON.stringify(new URL('../../dist/store/journal-entry.js', import.meta.url).href)}
    const journal = createMemoryJournal(1000)
    const request = { method: 'GET', path: '/pets', basePath: '/v1', search: '', headers: {} }
    for (let i = 0; i < 1000; i++) {
      const body = String(i).padStart(8, '0') + 'x'.repeat(1024 * 1024)
      journal.record('shared', { request, receivedAt: 0, tenant: null, status: 200, forced: false, outcome: 'answered', delayMs: 0, response: { status: 200, headers: {}, body } })
    }
    globalThis.gc()
    const shown = [...journal.chunks('shared')].flat().map((kept) => kept.entry().response.body)
    const whole = shown.every((body, i) => body.length === BODY_LIMIT && body.startsWith(String(i).padStart(8, '0')))
    console.log(JSON.stringify({ heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20), whole }))
  `
  const measured = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' })) as { heapMiB: number; whole: boolean }
  expect(measured.whole).toBe(true)
  // 16 Mi characters held by reference (one-byte strings here), the rest as 4 KiB copies: about 30 MiB.
  expect(measured.heapMiB).toBeLessThan(SHARED_ANSWER_CHARS / 2 ** 20 + 40)
})

it("keeps every scope's journal within its bytes together, the journal keeping the most giving way, so a busy store never pushes out a quiet one", () => {
  const journal = createMemoryJournal(1000, 100 * ENTRY_BYTES)
  const [busy, quiet, idle] = [scopeOf(journal, 'busy'), scopeOf(journal, 'quiet'), scopeOf(journal, 'idle')]
  const record = (scope: Scope, path: string) => scope.record({ request: request(path, { accept: 'x' }), receivedAt: 0, tenant: null, status: 200, forced: false, outcome: 'answered', delayMs: 0 })
  for (let i = 0; i < 5; i++) record(quiet, `/pets/q${i}`)
  const quietBytes = journal.totals().bytes
  for (let i = 0; i < 1000; i++) record(busy, `/pets/${i}`)
  expect(journal.totals().bytes).toBeLessThanOrEqual(100 * ENTRY_BYTES)
  expect(entriesOf(quiet).map((entry) => entry.path)).toEqual([0, 1, 2, 3, 4].map((i) => `/v1/pets/q${i}`))
  const kept = entriesOf(busy)
  expect(kept.at(-1)?.path).toBe('/v1/pets/999')
  expect(kept.length).toBeGreaterThan(80)
  expect(kept.length).toBeLessThan(95)
  // The order runs across the scopes; a dropped scope gives its room back.
  expect(entriesOf(idle)).toEqual([])
  expect(kept.at(-1)?.seq).toBe(1005)
  journal.drop('busy')
  expect(journal.totals().bytes).toBe(quietBytes)
  expect([...journal.chunks(undefined)].map((chunk) => chunk.length)).toEqual([5, 0])
})

/** What one entry of a GET of `path` without an answer counts for. */
function plainEntryBytes(path = '/pets'): number {
  const journal = createMemoryJournal(1)
  recordAnswer(scopeOf(journal, 'shared'), undefined, path)
  return journal.totals().bytes
}

it("keeps the last capacity entries in order as it wraps, after every journal's bound took its oldest too", () => {
  const path = (n: number) => `/pets/${String(n).padStart(2, '0')}`
  const journal = createMemoryJournal(4, 4 * plainEntryBytes(path(0)))
  const [own, other] = [scopeOf(journal, 'own'), scopeOf(journal, 'other')]
  const record = (n: number) => recordAnswer(own, undefined, path(n))
  const paths = () => entriesOf(own).map((entry) => entry.path)
  for (let n = 1; n <= 6; n++) record(n)
  expect(paths()).toEqual([3, 4, 5, 6].map((n) => `/v1${path(n)}`))
  // Every journal together is full: another scope's entry takes the oldest of the fullest, 3, and
  // each later one its next oldest; the ring goes on after them.
  recordAnswer(other, undefined, path(0))
  expect(paths()).toEqual([4, 5, 6].map((n) => `/v1${path(n)}`))
  for (let n = 7; n <= 9; n++) record(n)
  expect(paths()).toEqual([7, 8, 9].map((n) => `/v1${path(n)}`))
  journal.drop('other')
  for (let n = 10; n <= 11; n++) record(n)
  expect(paths()).toEqual([8, 9, 10, 11].map((n) => `/v1${path(n)}`))
  own.clear()
  expect(entriesOf(own)).toEqual([])
  record(12)
  expect(entriesOf(own).map((entry) => entry.seq)).toEqual([13])
})

it('keeps no entry with a size of 0 and the whole part of a fractional one, counting only what is kept', () => {
  const none = createMemoryJournal(0)
  for (let n = 1; n <= 3; n++) recordAnswer(scopeOf(none, 'shared'), undefined, `/pets/${n}`)
  expect(entriesOf(scopeOf(none, 'shared'))).toEqual([])
  expect(none.totals().bytes).toBe(0)
  const two = scopeOf(createMemoryJournal(2.5), 'shared')
  for (let n = 1; n <= 3; n++) recordAnswer(two, undefined, `/pets/${n}`)
  expect(entriesOf(two).map((entry) => entry.path)).toEqual(['/v1/pets/2', '/v1/pets/3'])
})

it('holds answers by reference up to SHARED_ANSWER_CHARS exactly, keeps a copy of the first BODY_LIMIT bytes of a longer one past it, and gives the room back as entries go', () => {
  const plain = plainEntryBytes()
  const memory = createMemoryJournal(6)
  const journal = scopeOf(memory, 'shared')
  const totals = () => memory.totals()
  const quarter = 'x'.repeat(SHARED_ANSWER_CHARS / 4)
  for (let i = 0; i < 4; i++) recordAnswer(journal, quarter)
  // The fourth lands exactly on the bound: still held by reference, and no bytes copied.
  expect(totals().sharedChars).toBe(SHARED_ANSWER_CHARS)
  expect(totals().bytes).toBe(4 * plain)
  recordAnswer(journal, quarter)
  expect(totals().sharedChars).toBe(SHARED_ANSWER_CHARS)
  expect(totals().bytes).toBe(5 * plain + BODY_LIMIT)
  expect(entriesOf(journal).at(-1)?.response?.body).toBe('x'.repeat(BODY_LIMIT))
  // An answer of BODY_LIMIT characters is held whatever is held already; one more and it is a copy.
  recordAnswer(journal, 'y'.repeat(BODY_LIMIT))
  expect(totals().sharedChars).toBe(SHARED_ANSWER_CHARS + BODY_LIMIT)
  expect(totals().bytes).toBe(6 * plain + BODY_LIMIT)
  recordAnswer(journal, 'z'.repeat(BODY_LIMIT + 1))
  // The seventh pushed out the first: its characters and its bytes are given back.
  expect(entriesOf(journal)).toHaveLength(6)
  expect(totals().sharedChars).toBe(SHARED_ANSWER_CHARS - SHARED_ANSWER_CHARS / 4 + BODY_LIMIT)
  expect(totals().bytes).toBe(6 * plain + 2 * BODY_LIMIT)
  journal.clear()
  expect([totals().sharedChars, totals().bytes]).toEqual([0, 0])
})

it('keeps every journal full to exactly its bound, and gives way with the first entry past it', () => {
  const plain = plainEntryBytes()
  const memory = createMemoryJournal(10, 3 * plain)
  const journal = scopeOf(memory, 'shared')
  for (let i = 0; i < 3; i++) recordAnswer(journal)
  expect(entriesOf(journal)).toHaveLength(3)
  expect(memory.totals().bytes).toBe(3 * plain)
  recordAnswer(journal)
  expect(entriesOf(journal).map((entry) => entry.seq)).toEqual([2, 3, 4])
  expect(memory.totals().bytes).toBe(3 * plain)
})

// readJournalPage is what every journal page goes through, in memory and in Redis: its bounds, exactly.
it(`cuts a page once its texts pass ${JOURNAL_PAGE_CHARS} characters (a page of exactly that many is whole), keeps a first entry past it, and pauses every ${PAGE_CHUNK} entries`, async () => {
  const items = (lengths: readonly number[]): KeptEntry[] =>
    lengths.map((length, i) => ({ seq: i + 1, tenant: null, method: 'GET', status: 200, basePath: '/v1', path: '/pets', text: () => 'x'.repeat(length), entry: () => ({}) as JournalEntry }))
  const cut = async (lengths: readonly number[], filter = {}) => {
    let pauses = 0
    const kept = items(lengths)
    const page = await readJournalPage({ chunks: () => [kept], size: () => kept.length }, undefined, filter, async () => void (pauses += 1))
    return { count: page.texts.length, next: page.next, more: page.more, total: page.total, pauses }
  }
  const half = JOURNAL_PAGE_CHARS / 2
  expect(await cut([half, half])).toEqual({ count: 2, next: 2, more: false, total: 2, pauses: 0 })
  expect(await cut([half, half, 1])).toEqual({ count: 2, next: 2, more: true, total: 3, pauses: 0 })
  expect(await cut([half, half + 1])).toEqual({ count: 1, next: 1, more: true, total: 2, pauses: 0 })
  expect(await cut([JOURNAL_PAGE_CHARS + 1, 1])).toEqual({ count: 1, next: 1, more: true, total: 2, pauses: 0 })
  expect(await cut(Array.from({ length: 2 * PAGE_CHUNK }, () => 1))).toMatchObject({ count: 2 * PAGE_CHUNK, pauses: 1 })
  expect(await cut(Array.from({ length: 2 * PAGE_CHUNK + 1 }, () => 1))).toMatchObject({ count: 2 * PAGE_CHUNK + 1, pauses: 2 })
  expect(await cut([], { since: 7 })).toEqual({ count: 0, next: 7, more: false, total: 0, pauses: 0 })
  expect(await cut([])).toEqual({ count: 0, next: 0, more: false, total: 0, pauses: 0 })
})
