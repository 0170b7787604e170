import { fail, ok, type Result } from '../service/http.js'

/** A Pact Broker consumer version selector: which consumer versions' pacts to verify. */
export type ConsumerVersionSelector = {
  readonly branch?: string
  readonly mainBranch?: true
  readonly matchingBranch?: true
  readonly fallbackBranch?: string
  readonly deployedOrReleased?: true
  readonly deployed?: true
  readonly released?: true
  readonly environment?: string
  readonly consumer?: string
  readonly tag?: string
  readonly fallbackTag?: string
  readonly latest?: boolean
}

/** Pact's recommended selection: each consumer's main branch, and whatever is deployed or released. */
export const DEFAULT_CONSUMER_VERSION_SELECTORS: readonly ConsumerVersionSelector[] = [{ mainBranch: true }, { deployedOrReleased: true }]

const TEXT_FIELDS = ['branch', 'fallbackBranch', 'environment', 'consumer', 'tag', 'fallbackTag'] as const
const TRUE_FIELDS = ['mainBranch', 'matchingBranch', 'deployedOrReleased', 'deployed', 'released'] as const

/**
 * Reads selectors written as Pact's JSON array, checking each field the broker knows.
 * @example parseConsumerVersionSelectors('[{"branch":"main"},{"deployedOrReleased":true}]')
 */
export function parseConsumerVersionSelectors(text: string): Result<ConsumerVersionSelector[], string> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return fail('is not JSON; write an array such as [{"branch":"main"}]')
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return fail('must be a non-empty JSON array of selectors')
  const selectors: ConsumerVersionSelector[] = []
  for (const [index, item] of parsed.entries()) {
    const selector = parseSelector(item)
    if (!selector.ok) return fail(`selector ${index + 1}: ${selector.error}`)
    selectors.push(selector.value)
  }
  return ok(selectors)
}

function parseSelector(item: unknown): Result<ConsumerVersionSelector, string> {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return fail('must be an object')
  const fields = Object.entries(item)
  if (fields.length === 0) return fail('names nothing to select')
  const known: readonly string[] = [...TEXT_FIELDS, ...TRUE_FIELDS, 'latest']
  for (const [key, value] of fields) {
    if (!known.includes(key)) return fail(`"${key}" is not a selector field (known: ${known.join(', ')})`)
    if ((TEXT_FIELDS as readonly string[]).includes(key) && (typeof value !== 'string' || value === '')) {
      return fail(`"${key}" must be a non-empty string`)
    }
    if ((TRUE_FIELDS as readonly string[]).includes(key) && value !== true) return fail(`"${key}" can only be true`)
    if (key === 'latest' && typeof value !== 'boolean') return fail('"latest" must be true or false')
  }
  return ok(item as ConsumerVersionSelector)
}
