import { expect, it } from 'vitest'
import { compareInt64, nextInt64, parseInt64Text, toInt64 } from '../../src/service/int64.js'

it('keeps safe integers as numbers and larger ones as exact bigints', () => {
  expect(parseInt64Text('42')).toBe(42)
  expect(parseInt64Text('-0')).toBe(0)
  expect(parseInt64Text('9007199254740991')).toBe(9007199254740991)
  expect(parseInt64Text('9007199254740993')).toBe(9007199254740993n)
  expect(parseInt64Text('9223372036854775807')).toBe(9223372036854775807n)
  expect(parseInt64Text('-9223372036854775808')).toBe(-9223372036854775808n)
})

it('refuses text that is not a decimal int64', () => {
  for (const text of ['9223372036854775808', '-9223372036854775809', '1.0', '1e3', '+1', ' 1', '', '0x10', '١', 'x1234567890123456789', '1234567890123456789x']) {
    expect(parseInt64Text(text), text).toBeUndefined()
  }
})

it('normalises one value to one form so Map keys and === agree', () => {
  expect(toInt64(5n)).toBe(5)
  expect(toInt64(-0)).toBe(0)
  expect(toInt64(2n ** 63n)).toBeUndefined()
  expect(toInt64(1.5)).toBeUndefined()
})

it('counts past 2^53 exactly and stops at the int64 maximum', () => {
  expect(nextInt64(9007199254740990)).toBe(9007199254740991)
  expect(nextInt64(9007199254740991)).toBe(9007199254740992n)
  expect(nextInt64(9007199254740992n)).toBe(9007199254740993n)
  expect(nextInt64(9223372036854775807n)).toBeUndefined()
})

it('orders numbers and bigints together', () => {
  expect(compareInt64(1, 2)).toBeLessThan(0)
  expect(compareInt64(9007199254740993n, 9007199254740991)).toBeGreaterThan(0)
  expect(compareInt64(-9223372036854775808n, -1)).toBeLessThan(0)
  expect(compareInt64(7, 7n)).toBe(0)
})
