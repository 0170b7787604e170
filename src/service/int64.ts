import type { Int64 } from '../spec/animals-service.js'

const MIN = -9_223_372_036_854_775_808n // -(2^63)
const MAX = 9_223_372_036_854_775_807n // 2^63 - 1

/** Normalises an exact integer to its one `Int64` form, or `undefined` when it is outside int64. */
export function toInt64(value: number | bigint): Int64 | undefined {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value === 0 ? 0 : value // folds -0 into 0
    return undefined // unsafe numbers have already lost digits; callers never pass them
  }
  if (value < MIN || value > MAX) return undefined
  const small = Number(value)
  return Number.isSafeInteger(small) ? small : value
}

/**
 * Reads a decimal integer written in text (a path segment), exactly.
 * @example parseInt64Text('9007199254740993') // 9007199254740993n
 */
export function parseInt64Text(text: string): Int64 | undefined {
  if (!/^-?[0-9]{1,20}$/.test(text)) return undefined
  // Up to 15 digits a double holds the value exactly: no bigint needed on the usual path.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: a fast path: BigInt gives the same id
  if (text.length <= (text.startsWith('-') ? 16 : 15)) return toInt64(Number(text))
  return toInt64(BigInt(text))
}

/** The next integer after `value`, or `undefined` past the int64 maximum. */
export function nextInt64(value: Int64): Int64 | undefined {
  return typeof value === 'number' && value < Number.MAX_SAFE_INTEGER ? value + 1 : toInt64(BigInt(value) + 1n)
}

/** Orders two int64 values. */
export function compareInt64(a: Int64, b: Int64): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const x = BigInt(a)
  const y = BigInt(b)
  return x < y ? -1 : x > y ? 1 : 0
}
