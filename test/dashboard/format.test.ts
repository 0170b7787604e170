import { expect, it } from 'vitest'
import { describeCounts, describeLatency, describePage, describeRule, shownHeader, statusClass } from '../../src/dashboard/format.js'

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
  expect(describePage(20, 11, 31)).toBe('21–31 of 31')
  expect(describePage(0, 0, 0)).toBe('none')
  expect([201, 404, 503, null].map(statusClass)).toEqual(['s2', 's4', 's5', 'sdrop'])
})
