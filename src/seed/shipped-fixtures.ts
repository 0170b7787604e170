import type { GenerateOptions } from './generate-pets.js'

/**
 * The fixtures shipped in `fixtures/`, each written by `npm run fixtures` from these options and
 * never edited by hand; a test regenerates them and compares bytes.
 */
export const SHIPPED_FIXTURES = [
  { name: 'default', seed: 1, count: 30 },
  { name: 'empty', seed: 1, count: 0 },
  { name: 'large', seed: 3, count: 10_000 },
] as const satisfies readonly (GenerateOptions & { readonly name: string })[]
