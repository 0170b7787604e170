import { parse, stringify } from 'lossless-json'
import { toInt64 } from '../service/int64.js'
import { type ErrorBody, type Int64, type NewPet, OPERATIONS, type Pet, petPath } from '../spec/animals-service.js'
import type { operations } from '../spec/openapi.generated.js'

/** The query of `listPets`, as the contract states it. */
export type ListPetsQuery = NonNullable<operations['listPets']['parameters']['query']>

/** What `getPet` answers besides the animal: the deprecation signals of the operation. */
export type Deprecation = { deprecation: string | null; sunset: string | null; link: string | null }

/** Options of `createAnimalsClient`. */
export type AnimalsClientOptions = {
  /** The API base including `/v1`, e.g. `http://127.0.0.1:4010/v1` or `/v1` in a browser. */
  baseUrl: string
  /** Sent as `Authorization: Bearer <apiKey>`; omitted, no `Authorization` is sent and the service answers 401. */
  apiKey?: string
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch
}

/** A typed client of the animals service. */
export type AnimalsClient = {
  listPets(query?: ListPetsQuery): Promise<Pet[]>
  createPet(newPet: NewPet): Promise<Pet>
  /** Deprecated by the service; the answer carries its deprecation headers. */
  getPet(petId: Int64 | string): Promise<{ pet: Pet; deprecation: Deprecation }>
}

/** An error answer of the service, carrying its Error body. */
export class AnimalsApiError extends Error {
  override readonly name = 'AnimalsApiError'
  readonly status: number
  readonly body: ErrorBody
  /** The deprecation headers when the failed call was `getPet`. */
  readonly deprecation: Deprecation

  constructor(status: number, body: ErrorBody, deprecation: Deprecation) {
    super(`${status} ${body.code}: ${body.message}`)
    this.status = status
    this.body = body
    this.deprecation = deprecation
  }
}

/** Whether an error is an error answer of the service. */
export function isAnimalsApiError(error: unknown): error is AnimalsApiError {
  return error instanceof AnimalsApiError
}

/**
 * Creates a client on `fetch`.
 * @example
 * const client = createAnimalsClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'dev-key' })
 * const sold = await client.listPets({ status: 'sold', limit: 5 })
 */
export function createAnimalsClient(options: AnimalsClientOptions): AnimalsClient {
  const send = options.fetch ?? ((input, init) => fetch(input, init))
  let base = options.baseUrl
  while (base.endsWith('/')) base = base.slice(0, -1)

  async function call(path: string, init: RequestInit = {}): Promise<{ response: Response; body: unknown }> {
    const headers = new Headers(init.headers)
    if (options.apiKey !== undefined) headers.set('authorization', `Bearer ${options.apiKey}`)
    headers.set('accept', 'application/json')
    const response = await send(`${base}${path}`, { ...init, headers })
    const text = await response.text()
    const body = parseExactJson(text)
    if (!response.ok) throw new AnimalsApiError(response.status, toErrorBody(body, response.status), deprecationOf(response))
    if (body === undefined) throw new TypeError(`${init.method ?? 'GET'} ${path} answered ${response.status} without JSON`)
    return { response, body }
  }

  return {
    async listPets(query = {}) {
      const params = new URLSearchParams()
      if (query.limit !== undefined) params.set('limit', String(query.limit))
      if (query.status !== undefined) params.set('status', query.status)
      const search = params.size === 0 ? '' : `?${params}`
      return (await call(`${OPERATIONS.listPets.path}${search}`)).body as Pet[]
    },
    async createPet(newPet) {
      // A categoryId past 2^53 is a bigint, which JSON.stringify refuses; lossless-json writes it exactly.
      const init = { method: OPERATIONS.createPet.method, headers: { 'content-type': 'application/json' }, body: stringify(newPet) ?? '' }
      return (await call(OPERATIONS.createPet.path, init)).body as Pet
    },
    async getPet(petId) {
      const { response, body } = await call(petPath(encodeURIComponent(String(petId))))
      return { pet: body as Pet, deprecation: deprecationOf(response) }
    },
  }
}

/** The answer's JSON, integers past 2^53 read exactly as bigints (the spec's ids are int64); `undefined` when it is not JSON. */
function parseExactJson(text: string): unknown {
  try {
    return parse(text, null, readNumber)
  } catch {}
  return undefined // not JSON
}

function readNumber(text: string): number | bigint {
  return (/^-?[0-9]+$/.test(text) ? toInt64(BigInt(text)) : undefined) ?? Number(text)
}

function deprecationOf(response: Response): Deprecation {
  const { headers } = response
  return { deprecation: headers.get('deprecation'), sunset: headers.get('sunset'), link: headers.get('link') }
}

function toErrorBody(body: unknown, status: number): ErrorBody {
  const candidate = body as Partial<ErrorBody> | undefined
  return typeof candidate?.code === 'string' && typeof candidate.message === 'string' && typeof candidate.status === 'number'
    ? { code: candidate.code, message: candidate.message, status: candidate.status }
    : { code: 'unknown', message: `The service answered ${status} without an Error body.`, status }
}
