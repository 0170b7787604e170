import { DEPRECATED_GET_PET, operationOf, petPath } from '../spec/animals-service.js'
import { isRecord } from '../service/json-value.js'

/** An interaction of a pact that depends on the deprecated `getPet`: who, which, and the warning in words. */
export type DeprecationWarning = { readonly consumer?: string; readonly description: string; readonly message: string }

/**
 * One warning per interaction of a pact (any Pact version's JSON) that calls `GET /pets/{petId}`:
 * it is deprecated and to be removed on `DEPRECATED_GET_PET.removal`, and `GET /pets` with the
 * `status` filter replaces it (spec 4.3, 9.2). Interactions that are not HTTP, or not that operation, give none.
 * @example deprecationWarnings(JSON.parse(pactText)).map((each) => each.message)
 */
export function deprecationWarnings(pact: unknown): DeprecationWarning[] {
  const record = isRecord(pact) ? pact : {}
  const consumer = isRecord(record.consumer) && typeof record.consumer.name === 'string' ? record.consumer.name : undefined
  const interactions = Array.isArray(record.interactions) ? record.interactions : []
  return interactions.filter(callsGetPet).map((interaction) => {
    const description = String(interaction.description)
    const message =
      `"${description}" calls GET /pets/{petId} (getPet), deprecated and to be removed on ${DEPRECATED_GET_PET.removal}; ` +
      `use ${DEPRECATED_GET_PET.successor.method} ${DEPRECATED_GET_PET.successor.path} with the ${DEPRECATED_GET_PET.successor.filter} filter instead (spec 4.3, 9.2)`
    return consumer === undefined ? { description, message } : { consumer, description, message }
  })
}

function callsGetPet(interaction: unknown): interaction is Record<string, unknown> {
  if (!isRecord(interaction) || typeof interaction.description !== 'string' || !isRecord(interaction.request)) return false
  const { method, path } = interaction.request
  if (typeof method !== 'string' || typeof path !== 'string') return false
  // A pact's path carries the consumer's base and may lack its leading slash or end with one: the
  // operation is read from its last /pets/ on.
  const [bare = ''] = `/${path}`.split('?')
  const trimmed = bare.endsWith('/') ? bare.slice(0, -1) : bare
  const at = trimmed.lastIndexOf(petPath(''))
  return at !== -1 && operationOf(method.toUpperCase(), trimmed.slice(at)) === 'getPet'
}

