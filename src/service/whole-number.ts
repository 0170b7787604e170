/** Whether `value` is a whole number from `min` to `max` (Number.isInteger refuses every non-number). */
export function isWholeNumber(value: unknown, min: number, max: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
}
