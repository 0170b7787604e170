import { join } from 'node:path'
import { PACKAGE_ROOT } from '#package-root'

/** Who the committed pact is between: the frontend that calls the service, and the service. */
export const PACT_PARTIES = { consumer: 'animals-frontend', provider: 'animals-service' } as const

/** Where the consumer tests' pact files are committed: `contracts/pacts/`. */
export const PACT_DIR = join(PACKAGE_ROOT, 'contracts/pacts/')

/** The file name Pact gives the pact between the two parties. */
export const PACT_FILE_NAME = `${PACT_PARTIES.consumer}-${PACT_PARTIES.provider}.json`

/** The committed pact file, or the one of that name in another directory (e.g. a test's temporary one). */
export function pactFilePath(dir: string = PACT_DIR): string {
  return join(dir, PACT_FILE_NAME)
}

/**
 * A pact without what changes when only the libraries change: the versions pact-js and its Rust
 * core write into `metadata`. Two pacts with equal normal forms make the same promises.
 * @example normalisePact(JSON.parse(text))
 */
export function normalisePact(pact: unknown): unknown {
  if (typeof pact !== 'object' || pact === null || !('metadata' in pact)) return pact
  const { metadata, ...rest } = pact
  if (typeof metadata !== 'object' || metadata === null) return pact
  const { 'pact-js': _pactJs, pactRust: _pactRust, ...kept } = metadata as Record<string, unknown>
  return { ...rest, metadata: kept }
}
