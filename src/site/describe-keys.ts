import type { KeyPolicy } from '../service/auth.js'

/**
 * Which keys an instance accepts, in words and never the keys themselves.
 * @example describeKeys({ kind: 'listed', keys: ['a', 'b'] }) // '2 configured key(s)'
 */
export function describeKeys(policy: KeyPolicy): string {
  return policy.kind === 'any' ? 'any non-empty bearer token' : `${policy.keys.length} configured key(s)`
}
