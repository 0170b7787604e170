/**
 * The value of a JSON text, or `undefined` when there is no text or it is not JSON (no JSON text
 * reads as `undefined`, so nothing is lost). Plain `JSON.parse`: numbers past 2^53 round, so an id
 * that must stay exact is read with `parseJsonText` instead.
 * @example jsonOrUndefined('{"a":1}') // { a: 1 }
 * @example jsonOrUndefined('{"a":') // undefined
 */
export function jsonOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {}
  return undefined // not JSON
}

/** Whether a value is a JSON object: neither null nor an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
