/** Whether `value` is a whole number from `min` to `max` (Number.isInteger refuses every non-number). */
export function isWholeNumber(value: unknown, min: number, max: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
}

/**
 * The whole number a text of digits writes, when it is from `min` to `max`; `undefined` for
 * anything else: no text, a sign, a point, an exponent, spaces, or more than 16 digits.
 * @example parseWholeNumber('42', 1, 100) // 42
 * @example parseWholeNumber('1e2', 1, 100) // undefined
 */
export function parseWholeNumber(text: string | null | undefined, min: number, max: number): number | undefined {
  if (typeof text !== 'string' || !/^[0-9]{1,16}$/.test(text)) return undefined
  const value = Number(text)
  return value >= min && value <= max ? value : undefined
}
