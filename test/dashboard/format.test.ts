import { expect, it } from 'vitest'
import type { JournalEntry } from '../../src/dashboard/control-client.js'
import { describeCategory, describeCounts, describeExchange, describeLatency, describeOutcome, describePage, describeRule, describeSearch, shownHeader, statusClass } from '../../src/dashboard/format.js'

it('hides credential headers whatever they hold, keeping only the scheme', () => {
  expect(shownHeader('authorization', 'Bearer [redacted]')).toBe('Bearer [redacted]')
  expect(shownHeader('Authorization', 'Bearer raw-key-that-slipped-through')).toBe('Bearer [redacted]')
  expect(shownHeader('cookie', 'session=abc123')).toBe('[redacted]')
  expect(shownHeader('x-api-key', 'k-123')).toBe('[redacted]')
  expect(shownHeader('x-control-token', 'ctl')).toBe('[redacted]')
  expect(shownHeader('content-type', 'application/json')).toBe('application/json')
})

it('describes forced rules, latency, counts and pages in words', () => {
  expect(describeRule({ id: 1, tenant: null, method: 'GET', path: '/pets', status: 503, remaining: 2 })).toBe('#1 GET /pets → 503 (2 more)')
  expect(describeRule({ id: 2, tenant: 'tenant-3', delayMs: 300, drop: true })).toBe(
    '#2 any method any path → wait 300 ms, drop the connection (until removed) [tenant-3]',
  )
  expect(describeLatency({})).toBe('none')
  expect(describeLatency({ ms: 250 })).toBe('250 ms on every answer')
  expect(describeLatency({ minMs: 100, maxMs: 900 })).toBe('100 to 900 ms on every answer')
  expect(describeCounts({ available: 3, pending: 2, sold: 1, none: 4 })).toBe('10 animals: 3 available, 2 pending, 1 sold, 4 without status')
  // A status the spec may add is counted and shown as the fake gives it, with no change here.
  const wider = { available: 3, pending: 2, sold: 1, reserved: 5, none: 4 } as unknown as Parameters<typeof describeCounts>[0]
  expect(describeCounts(wider)).toBe('15 animals: 3 available, 2 pending, 1 sold, 5 reserved, 4 without status')
  expect(describePage(20, 11, 31)).toBe('21–31 of 31')
  expect(describePage(0, 0, 0)).toBe('none')
  expect([201, 404, 503, null].map(statusClass)).toEqual(['s2', 's4', 's5', 'sdrop'])
})

it('says who chose each answer in the status column', () => {
  const entry = (outcome: JournalEntry['outcome'], status: number | null = 503) => ({ status, outcome, delayMs: 30 })
  expect(describeOutcome(entry('answered', 200))).toBe('200')
  expect(describeOutcome(entry('prefer'))).toBe('503 · Prefer')
  expect(describeOutcome(entry('forced'))).toBe('503 · forced')
  expect(describeOutcome(entry('delayed', 404))).toBe('404 · delayed 30 ms by a rule')
  expect(describeOutcome(entry('dropped', null))).toBe('dropped by a rule')
})

it('shows a request and its answer, or that the connection was dropped', () => {
  const entry: JournalEntry = {
    seq: 1,
    time: '2026-01-01T00:00:00.000Z',
    tenant: null,
    method: 'POST',
    path: '/v1/pets',
    query: 'x=1',
    status: 201,
    forced: false,
    outcome: 'answered',
    delayMs: 0,
    headers: { authorization: 'Bearer [redacted]', 'content-type': 'application/json' },
    body: '{"name":"Rex"}',
    response: { headers: { location: '/v1/pets/31' }, body: '{"id":31}' },
  }
  expect(describeExchange(entry)).toBe(
    'POST /v1/pets?x=1\nauthorization: Bearer [redacted]\ncontent-type: application/json\n\n{"name":"Rex"}\n\n── answer ──\n201\nlocation: /v1/pets/31\n\n{"id":31}',
  )
  const { body: _body, response: _response, ...bare } = entry
  expect(describeExchange({ ...bare, query: '', status: null, outcome: 'dropped', headers: {} })).toBe('POST /v1/pets\n\n── answer ──\nNo answer: the connection was dropped.')
  expect(describeExchange({ ...bare, query: '', headers: {}, response: { headers: {} } })).toBe('POST /v1/pets\n\n── answer ──\n201')
})

it('names a category beside its number where the fake has a name for it', () => {
  expect(describeCategory(2, { 2: 'Cats' })).toBe('2 · Cats')
  expect(describeCategory(9, { 2: 'Cats' })).toBe('9')
})

it('says how many animals a search found, and when only part of the store was read', () => {
  expect(describeSearch('bel', { total: 3, complete: true, scanned: 10 })).toBe('3 animals named like "bel"')
  expect(describeSearch('bel', { total: 1 })).toBe('1 animal named like "bel"')
  expect(describeSearch('bel', { total: 0, complete: false, scanned: 200000 })).toBe('0 animals named like "bel" among the first 200000 (the rest were not searched)')
})
