import { LIMIT, PET_STATUSES, REMOVAL_DAY_IN_WORDS } from './animals-service.js'

/**
 * A sentence of the animals service's specification, quoted word for word, and its section. A
 * table row is quoted as its cells joined by ` | `. Every finding that calls an answer a
 * contradiction of the spec cites one of these; a test checks each quote against the spec's text.
 */
export type SpecCitation = { readonly section: string; readonly quote: string }

/** PetStatus's values as the spec writes them: `` `available`, `pending`, `sold` ``. */
const STATUS_VALUES = PET_STATUSES.map((status) => `\`${status}\``).join(', ')

/**
 * The sentences parity, the pact and the proxy rely on, by what they promise. A sentence that
 * states a fact of `animals-service.ts` (the statuses, the limit's bounds, the removal day) is
 * written from it, so that the fact changes in one place and the test holds the two to the spec.
 */
export const SPEC = {
  json: { section: '1', quote: 'Bodies are JSON (`application/json`).' },
  keyNeeded: { section: '1', quote: 'All operations need an API key sent as a bearer token.' },
  petList: { section: '2', quote: 'A list of animals is a JSON array of Pet objects.' },
  petId: { section: '2', quote: 'id | integer | int64 | yes | Unique identifier assigned by the service on creation' },
  petName: { section: '2', quote: "name | string | - | yes | The animal's name" },
  petCategoryId: { section: '2', quote: 'categoryId | integer | int64 | yes | Identifier of the category the animal belongs to' },
  petStatus: { section: '2', quote: 'status | PetStatus | - | no | Availability status; no default is stated' },
  petFields: { section: '2', quote: 'All fields of NewPet plus:' },
  statusValues: { section: '2', quote: `Allowed values: ${STATUS_VALUES}.` },
  listOk: { section: '4.1', quote: '200 | JSON array of Pet | Success; the list is described as paginated' },
  limit: { section: '4.1', quote: `limit | integer | no | minimum ${LIMIT.min}, maximum ${LIMIT.max}, default ${LIMIT.default} | Maximum number of animals returned` },
  statusFilter: {
    section: '4.1',
    quote: `status | PetStatus | no | one of ${STATUS_VALUES} | Returns only animals with this status`,
  },
  created: { section: '4.2', quote: '201 | Pet (includes the assigned `id`) | Animal added' },
  badBody: { section: '4.2', quote: '400 | Error | Body missing, required fields missing, or values invalid' },
  missingField: { section: '7', quote: 'When POST /pets lacks `name` or `categoryId`, then the response is 400.' },
  found: { section: '4.3', quote: '200 | Pet | Animal found' },
  notFound: { section: '7', quote: 'When GET /pets/{petId} names an unknown animal, then the response is 404.' },
  bearer: { section: '5.2', quote: 'The client passes its API key as the bearer token in the `Authorization` header, in the form `Authorization: Bearer <API_KEY>`.' },
  unauthorized: { section: '7', quote: 'When a request carries no valid bearer key, then the response is 401.' },
  errorBody: {
    section: '7',
    quote: 'Every error response carries the Error body (`code`, `message`, `status`); `status` repeats the HTTP status code.',
  },
  removal: {
    section: '9.2',
    quote: `GET /pets/{petId} is deprecated with an announced removal date of ${REMOVAL_DAY_IN_WORDS}; until then it remains available.`,
  },
} as const satisfies Record<string, SpecCitation>

/** Which sentence of the spec: a key of `SPEC`. */
export type SpecRuleName = keyof typeof SPEC

/**
 * The citation as findings print it.
 * @example cite('unauthorized') // 'spec 7: "When a request carries no valid bearer key, then the response is 401."'
 */
export function cite(name: SpecRuleName): string {
  const { section, quote } = SPEC[name]
  return `spec ${section}: "${quote}"`
}
