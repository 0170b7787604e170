import { expect, it } from 'vitest'
import type { Fields, PlainRequest } from '../../src/service/http.js'
import { execFileSync } from 'node:child_process'
import { createJournal, createJournalPool, ENTRY_BYTES, type Journal, SHARED_ANSWER_CHARS } from '../../src/memory/journal.js'
import { BODY_LIMIT, type JournalEntry, type KeptEntry } from '../../src/store/journal-entry.js'
import { JOURNAL_PAGE_CHARS, PAGE_CHUNK, readJournalPage } from '../../src/fake/journal-reader.js'

/** What a journal kept, as the journal shows it. */
const entriesOf = (journal: Journal): JournalEntry[] => journal.items().map((kept) => kept.entry())

const request = (path: string, headers: Fields, body?: Uint8Array): PlainRequest => ({
  method: body === undefined ? 'GET' : 'POST',
  path,
  basePath: '/v1',
  search: `q=${path.length}`,
  headers,
  body,
})

/** Records a GET of `path` answered by the API into `journal`, with the answer `body` when given. */
const recordAnswer = (journal: ReturnType<typeof createJournal>, body?: string, path = '/pets') =>
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
    import { createJournal } from ${JSON.stringify(new URL('../../dist/memory/journal.js', import.meta.url).href)}
    import { BODY_LIMIT } from ${JSON.stringify(new URL('../../dist/store/journal-entry.js', import.meta.url).href)}
    const journal = createJournal(1000)
    const request = { method: 'GET', path: '/pets', basePath: '/v1', search: '', headers: {} }
    for (let i = 0; i < 1000; i++) {
      const body = String(i).padStart(8, '0') + 'x'.repeat(1024 * 1024)
      journal.record({ request, receivedAt: 0, tenant: null, status: 200, forced: false, outcome: 'answered', delayMs: 0, response: { status: 200, headers: {}, body } })
    }
    globalThis.gc()
    const shown = journal.items().map((kept) => kept.entry().response.body)
    const whole = shown.every((body, i) => body.length === BODY_LIMIT && body.startsWith(String(i).padStart(8, '0')))
    console.log(JSON.stringify({ heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20), whole }))
  `
  const measured = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' })) as { heapMiB: number; whole: boolean }
  expect(measured.whole).toBe(true)
  // 16 Mi characters held by reference (one-byte strings here), the rest as 4 KiB copies: about 30 MiB.
  expect(measured.heapMiB).toBeLessThan(SHARED_ANSWER_CHARS / 2 ** 20 + 40)
})

it('keeps every journal of a pool within its bytes together, the journal keeping the most giving way, so a busy store never pushes out a quiet one', () => {
  const pool = createJournalPool(100 * ENTRY_BYTES)
  const [busy, quiet, idle] = [createJournal(1000, pool), createJournal(1000, pool), createJournal(1000, pool)]
  const record = (journal: typeof busy, path: string) =>
    journal.record({ request: request(path, { accept: 'x' }), receivedAt: 0, tenant: null, status: 200, forced: false, outcome: 'answered', delayMs: 0 })
  for (let i = 0; i < 5; i++) record(quiet, `/pets/q${i}`)
  const quietBytes = pool.bytes
  for (let i = 0; i < 1000; i++) record(busy, `/pets/${i}`)
  expect(pool.bytes).toBeLessThanOrEqual(100 * ENTRY_BYTES)
  expect(entriesOf(quiet).map((entry) => entry.path)).toEqual([0, 1, 2, 3, 4].map((i) => `/v1/pets/q${i}`))
  const kept = entriesOf(busy)
  expect(kept.at(-1)?.path).toBe('/v1/pets/999')
  expect(kept.length).toBeGreaterThan(80)
  expect(kept.length).toBeLessThan(95)
  // The pool's order runs across its journals; a released journal gives its room back.
  expect(entriesOf(idle)).toEqual([])
  expect(kept.at(-1)?.seq).toBe(1005)
  busy.release()
  expect(pool.bytes).toBe(quietBytes)
  expect(pool.members.size).toBe(2)
})

it('keeps the last capacity entries in order as it wraps, after the pool took its oldest too', () => {
  const pool = createJournalPool()
  const journal = createJournal(4, pool)
  const record = (n: number) => recordAnswer(journal, undefined, `/pets/${n}`)
  for (let n = 1; n <= 6; n++) record(n)
  expect(entriesOf(journal).map((entry) => entry.path)).toEqual([3, 4, 5, 6].map((n) => `/v1/pets/${n}`))
  // The pool takes the oldest of the fullest journal: here, entry 3; the ring goes on after it.
  ;[...pool.members][0]?.dropOldest()
  for (let n = 7; n <= 9; n++) record(n)
  expect(entriesOf(journal).map((entry) => entry.path)).toEqual([6, 7, 8, 9].map((n) => `/v1/pets/${n}`))
  journal.clear()
  expect(entriesOf(journal)).toEqual([])
  record(10)
  expect(entriesOf(journal).map((entry) => entry.seq)).toEqual([10])
})

it('keeps no entry with a capacity of 0 and its whole part of a fractional one, the pool counting only what is kept', () => {
  const pool = createJournalPool()
  const none = createJournal(0, pool)
  const two = createJournal(2.5, pool)
  const record = (journal: typeof none, n: number) => recordAnswer(journal, undefined, `/pets/${n}`)
  for (let n = 1; n <= 3; n++) record(none, n)
  expect(entriesOf(none)).toEqual([])
  expect(pool.bytes).toBe(0)
  for (let n = 1; n <= 3; n++) record(two, n)
  expect([none.capacity, two.capacity]).toEqual([0, 2])
  expect(entriesOf(two).map((entry) => entry.path)).toEqual(['/v1/pets/2', '/v1/pets/3'])
})

/** What one such entry counts for in its pool, without an answer copied. */
function plainEntryBytes(): number {
  const pool = createJournalPool()
  recordAnswer(createJournal(1, pool))
  return pool.bytes
}

it('holds answers by reference up to SHARED_ANSWER_CHARS exactly, keeps a copy of the first BODY_LIMIT bytes of a longer one past it, and gives the room back as entries go', () => {
  const plain = plainEntryBytes()
  const pool = createJournalPool()
  const journal = createJournal(6, pool)
  const [member] = [...pool.members]
  const quarter = 'x'.repeat(SHARED_ANSWER_CHARS / 4)
  for (let i = 0; i < 4; i++) recordAnswer(journal, quarter)
  // The fourth lands exactly on the bound: still held by reference, and no bytes copied.
  expect(pool.sharedChars).toBe(SHARED_ANSWER_CHARS)
  expect(pool.bytes).toBe(4 * plain)
  recordAnswer(journal, quarter)
  expect(pool.sharedChars).toBe(SHARED_ANSWER_CHARS)
  expect(pool.bytes).toBe(5 * plain + BODY_LIMIT)
  expect(entriesOf(journal).at(-1)?.response?.body).toBe('x'.repeat(BODY_LIMIT))
  // An answer of BODY_LIMIT characters is held whatever the pool holds; one more and it is a copy.
  recordAnswer(journal, 'y'.repeat(BODY_LIMIT))
  expect(pool.sharedChars).toBe(SHARED_ANSWER_CHARS + BODY_LIMIT)
  expect(pool.bytes).toBe(6 * plain + BODY_LIMIT)
  recordAnswer(journal, 'z'.repeat(BODY_LIMIT + 1))
  // The seventh pushed out the first: its characters and its bytes are given back.
  expect(entriesOf(journal)).toHaveLength(6)
  expect(pool.sharedChars).toBe(SHARED_ANSWER_CHARS - SHARED_ANSWER_CHARS / 4 + BODY_LIMIT)
  expect(pool.bytes).toBe(6 * plain + 2 * BODY_LIMIT)
  expect(member?.bytes()).toBe(pool.bytes)
  journal.clear()
  expect([pool.sharedChars, pool.bytes, member?.bytes()]).toEqual([0, 0, 0])
})

it('keeps a pool full to exactly its bound, and gives way with the first entry past it', () => {
  const plain = plainEntryBytes()
  const pool = createJournalPool(3 * plain)
  const journal = createJournal(10, pool)
  for (let i = 0; i < 3; i++) recordAnswer(journal)
  expect(entriesOf(journal)).toHaveLength(3)
  expect(pool.bytes).toBe(3 * plain)
  recordAnswer(journal)
  expect(entriesOf(journal).map((entry) => entry.seq)).toEqual([2, 3, 4])
  expect(pool.bytes).toBe(3 * plain)
})

// readJournalPage is what every journal page goes through, in memory and in Redis: its bounds, exactly.
it(`cuts a page once its texts pass ${JOURNAL_PAGE_CHARS} characters (a page of exactly that many is whole), keeps a first entry past it, and pauses every ${PAGE_CHUNK} entries`, async () => {
  const items = (lengths: readonly number[]): KeptEntry[] =>
    lengths.map((length, i) => ({ seq: i + 1, tenant: null, method: 'GET', status: 200, basePath: '/v1', path: '/pets', text: () => 'x'.repeat(length), entry: () => ({}) as JournalEntry }))
  const cut = async (lengths: readonly number[], filter = {}) => {
    let pauses = 0
    const page = await readJournalPage([items(lengths)], filter, async () => void (pauses += 1))
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
