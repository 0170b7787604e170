/** The day `GET /pets/{petId}` is to be removed (spec 9.2). */
export const GET_PET_REMOVAL_DATE = '2030-12-05'

/** An interaction of a pact that depends on the deprecated `getPet`: who, which, and the warning in words. */
export type DeprecationWarning = { readonly consumer?: string; readonly description: string; readonly message: string }

/**
 * One warning per interaction of a pact (any Pact version's JSON) that calls `GET /pets/{petId}`:
 * it is deprecated and to be removed on 5 December 2030, and `GET /pets` with the `status` filter
 * replaces it (spec 4.3, 9.2). Interactions that are not HTTP, or not that operation, give none.
 * @example deprecationWarnings(JSON.parse(pactText)).map((each) => each.message)
 */
export function deprecationWarnings(pact: unknown): DeprecationWarning[] {
  const record = isRecord(pact) ? pact : {}
  const consumer = isRecord(record.consumer) && typeof record.consumer.name === 'string' ? record.consumer.name : undefined
  // Stryker disable next-line ArrayDeclaration: a string in the list is no record, so callsGetPet drops it
  const interactions = Array.isArray(record.interactions) ? record.interactions : []
  return interactions.filter(callsGetPet).map((interaction) => {
    const description = String(interaction.description)
    const message =
      `"${description}" calls GET /pets/{petId} (getPet), deprecated and to be removed on ${GET_PET_REMOVAL_DATE}; ` +
      'use GET /pets with the status filter instead (spec 4.3, 9.2)'
    return consumer === undefined ? { description, message } : { consumer, description, message }
  })
}

function callsGetPet(interaction: unknown): interaction is Record<string, unknown> {
  if (!isRecord(interaction) || typeof interaction.description !== 'string' || !isRecord(interaction.request)) return false
  const { method, path } = interaction.request
  const read = typeof method === 'string' && ['GET', 'HEAD'].includes(method.toUpperCase())
  // Under any base path: /pets/{petId}, a trailing slash allowed. The pattern is written here, not
  // in a module constant, so a test in this process meets a planted change (docs/contributing.md).
  // Stryker disable next-line StringLiteral: split gives one part at least; the default only satisfies the type
  return read && typeof path === 'string' && /(?:^|\/)pets\/[^/]+\/?$/.test(path.split('?')[0] ?? '')
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
