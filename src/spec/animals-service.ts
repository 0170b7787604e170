/**
 * What the animals service's specification says (contracts/spec/animals-service.txt), each fact
 * once: the operations, PetStatus, the `limit` bounds, the deprecation of `getPet`, the shapes of
 * Pet, NewPet and the Error body. Every room reads them here; test/spec checks each against the
 * spec's text. The shapes are derived from the contract's own types (`openapi.generated.ts`,
 * written from contracts/openapi.yaml by `npm run contract:types`), so the contract is their source.
 */
import type { components } from './openapi.generated.js'

/** The contract's schemas, as openapi-typescript writes them (`components['schemas']`). */
export type Schemas = components['schemas']

/** A contract shape with every field read-only and its int64 fields as Int64 (generators say `number`). */
export type WithInt64<Shape, Int64Field extends keyof Shape> = { readonly [Field in keyof Shape]: Field extends Int64Field ? Int64 : Shape[Field] }

/** The interface's version and the path prefix of both base addresses (spec 9.1). */
export const INTERFACE = { version: '1.0.0', basePath: '/v1' } as const

/** PetStatus's values (spec 2). */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const satisfies readonly Schemas['PetStatus'][]

/** An animal's availability (spec 2). */
export type PetStatus = Schemas['PetStatus']

/** Whether a value is one of PetStatus's values. */
export function isPetStatus(value: unknown): value is PetStatus {
  return PET_STATUSES.includes(value as PetStatus)
}

/**
 * An `integer` of format `int64` (spec 2): a `number` while it is a safe integer, a `bigint` past
 * 2^53, where a number would lose digits. One value has one form (`toInt64`).
 */
export type Int64 = number | bigint

/** The body of `POST /pets` (spec 2): `status` has no default, so an absent status stays absent. */
export type NewPet = WithInt64<Schemas['NewPet'], 'categoryId'>

/** NewPet's fields, in the spec's order (spec 2). */
export const NEW_PET_FIELDS = ['name', 'categoryId', 'status'] as const satisfies readonly (keyof NewPet)[]

/** An animal as the service returns it (spec 2): a NewPet plus the id the service assigned. */
export type Pet = WithInt64<Schemas['Pet'], 'categoryId' | 'id'>

/** The body of every error response (spec 2, 7): `status` repeats the HTTP status. */
export type ErrorBody = Readonly<Schemas['ErrorBody']>

/** The Error body's fields, in the spec's order. */
export const ERROR_FIELDS = ['code', 'message', 'status'] as const satisfies readonly (keyof ErrorBody)[]

/** The `limit` query parameter of `GET /pets` (spec 4.1, 8). */
export const LIMIT = { min: 1, max: 100, default: 20 } as const

/** An operation as the spec describes it: its method and path, its success and its errors. */
type OperationSpec = {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly success: number
  readonly errors: readonly number[]
}

/** The three operations (spec 4), by their operation names. */
export const OPERATIONS = {
  listPets: { method: 'GET', path: '/pets', success: 200, errors: [401] },
  createPet: { method: 'POST', path: '/pets', success: 201, errors: [400, 401] },
  getPet: { method: 'GET', path: '/pets/{petId}', success: 200, errors: [401, 404] },
} as const satisfies Record<string, OperationSpec>

/** An operation's name. */
export type OperationId = keyof typeof OPERATIONS

/**
 * `getPet` is deprecated (spec 4.3, 9.2): its removal is announced for the day `removal` says, and
 * `GET /pets` with the `status` filter replaces it.
 */
export const DEPRECATED_GET_PET = {
  operation: 'getPet',
  removal: '2030-12-05',
  successor: { method: 'GET', path: '/pets', filter: 'status' },
} as const

const REMOVAL_DAY = new Date(`${DEPRECATED_GET_PET.removal}T00:00:00Z`)

/** The removal day of `getPet` as a `Sunset` header states it (RFC 8594's HTTP-date, at 00:00 UTC). */
export const REMOVAL_HTTP_DATE = REMOVAL_DAY.toUTCString()

/** The removal day of `getPet` as the spec writes it, e.g. `5 December 2030`. */
export const REMOVAL_DAY_IN_WORDS = REMOVAL_DAY.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

/** The path of one animal below the base, up to its id: `/pets/`. */
const PET_PATH_PREFIX = OPERATIONS.getPet.path.replace('{petId}', '')

/**
 * The path below the base of one animal: `getPet`'s path with its `petId`.
 * @example petPath(7) // '/pets/7'
 */
export function petPath(petId: Int64 | string): string {
  return OPERATIONS.getPet.path.replace('{petId}', String(petId))
}

/**
 * The `petId` segment of a path below the base that names one animal, as written (still
 * percent-encoded); `undefined` for any other path.
 * @example petIdOf('/pets/7') // '7'
 */
export function petIdOf(path: string): string | undefined {
  if (!path.startsWith(PET_PATH_PREFIX)) return undefined
  const petId = path.slice(PET_PATH_PREFIX.length)
  return petId === '' || petId.includes('/') ? undefined : petId
}

/**
 * The operation a method and a path below the base name (HEAD reads as GET, as HTTP has it), or
 * `undefined` for a method or path the spec does not have.
 * @example operationOf('GET', '/pets/7') // 'getPet'
 */
export function operationOf(method: string, path: string): OperationId | undefined {
  const reads = method === 'GET' || method === 'HEAD'
  if (path === OPERATIONS.listPets.path) return reads ? 'listPets' : method === OPERATIONS.createPet.method ? 'createPet' : undefined
  return reads && petIdOf(path) !== undefined ? 'getPet' : undefined
}
