/** `T` with the keys whose type allows `undefined` made optional, and `undefined` taken out of them. */
export type DefinedOnly<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> }

/**
 * The fields whose value is not `undefined`: how an option given as `undefined` reads as one not
 * given, where `exactOptionalPropertyTypes` keeps `{ latency: undefined }` from passing as `{}`.
 * @example createFake({ pets, ...definedOnly({ latency, ids }) })
 */
export function definedOnly<T extends Record<string, unknown>>(fields: T): DefinedOnly<T> {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) kept[key] = value
  return kept as DefinedOnly<T>
}
