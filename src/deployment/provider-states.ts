import { type AnimalsClient, createAnimalsClient } from '../client/client.js'
import { markName } from './run-marker.js'
import { isPetStatus, LIMIT } from '../spec/animals-service.js'

import type { NewPet, PetStatus } from '../spec/animals-service.js'
/**
 * The provider states the pacts use, as sentences. Each is met through the public API alone, so a
 * deployment without a control API (staging) can meet them as well as the fake.
 */
export const PROVIDER_STATES = {
  /** Params `name`, `categoryId`, optional `status`; gives `petId`, the id the service assigned. */
  animalExists: 'an animal exists',
  /** Params `atLeast` (`LIMIT.min` to `LIMIT.max`), optional `status`: at least that many animals (with that status) exist. */
  animalsExist: 'animals exist',
  /** No params; gives `petId`, an id no animal can have. */
  noAnimalWithGivenId: 'no animal exists with the given id',
} as const

/** A provider state's sentence. */
export type ProviderStateName = (typeof PROVIDER_STATES)[keyof typeof PROVIDER_STATES]

/**
 * The largest int64, the id the "no animal" state gives: ids are int64 and assigned by the service
 * counting up, so no animal gets it. A string, since a JavaScript number cannot hold it exactly.
 */
export const UNKNOWN_PET_ID = '9223372036854775807'

/** Values a state hands to the request through `fromProviderState`, e.g. `{ petId: '31' }`. */
export type ProviderStateValues = Record<string, string>

/** Sets a provider state up; shaped as Pact's `StateFunc`, so the map is Pact's `stateHandlers`. */
export type ProviderStateHandler = (params?: unknown) => Promise<ProviderStateValues | undefined>

/** Options of `createProviderStateHandlers`. */
export type ProviderStateOptions = {
  /** The API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`. */
  readonly baseUrl: string
  /** A key the provider accepts; used for the calls that set states up, never printed. */
  readonly apiKey: string
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof fetch
  /** Appended to the name of every animal a state creates, so the animals of a run can be told apart. */
  readonly marker?: string
  /** Gives up on each call to the service after this many milliseconds; no limit unless given. */
  readonly timeoutMs?: number
}

/**
 * Builds Pact `stateHandlers` that set each provider state up by calling the service's public API
 * (`GET` and `POST /pets`); nothing is deleted afterwards, since the service has no way to.
 * @example new Verifier({ ..., stateHandlers: createProviderStateHandlers({ baseUrl, apiKey, marker: 'run-42' }) })
 */
export function createProviderStateHandlers(options: ProviderStateOptions): Record<ProviderStateName, ProviderStateHandler> {
  const client = createAnimalsClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: fetchOf(options) })
  const mark = (name: string): string => markName(name, options.marker)
  return {
    [PROVIDER_STATES.animalExists]: async (params) => {
      const animal = parseAnimalParams(params)
      const created = await client.createPet({ ...animal, name: mark(animal.name) })
      return { petId: String(created.id) }
    },
    [PROVIDER_STATES.animalsExist]: async (params) => {
      await ensureAnimals(client, parseAnimalsParams(params), mark)
      return undefined
    },
    [PROVIDER_STATES.noAnimalWithGivenId]: async () => ({ petId: UNKNOWN_PET_ID }),
  }
}

function fetchOf(options: ProviderStateOptions): typeof fetch {
  const send = options.fetch ?? ((input, init) => fetch(input, init))
  const { timeoutMs } = options
  return timeoutMs === undefined ? send : (input, init) => send(input, { ...init, signal: AbortSignal.timeout(timeoutMs) })
}

type AnimalsParams = { readonly atLeast: number; readonly status?: PetStatus }

async function ensureAnimals(client: AnimalsClient, params: AnimalsParams, mark: (name: string) => string): Promise<void> {
  const query = params.status === undefined ? { limit: params.atLeast } : { limit: params.atLeast, status: params.status }
  const existing = (await client.listPets(query)).length
  for (let i = existing; i < params.atLeast; i++) {
    const name = mark(`Pact animal ${i + 1}`)
    await client.createPet(params.status === undefined ? { name, categoryId: 1 } : { name, categoryId: 1, status: params.status })
  }
}

function paramsOf(params: unknown, state: string): Record<string, unknown> {
  if (typeof params !== 'object' || params === null) throw new TypeError(`"${state}" needs parameters`)
  return params as Record<string, unknown>
}

// The parameters come from a pact file: a mistake there is a bug in the pact, so it throws.
function parseAnimalParams(params: unknown): NewPet {
  const { name, categoryId, status } = paramsOf(params, PROVIDER_STATES.animalExists)
  if (typeof name !== 'string' || !Number.isSafeInteger(categoryId) || (status !== undefined && !isPetStatus(status))) {
    throw new TypeError(`"${PROVIDER_STATES.animalExists}" needs a string name, an integer categoryId and a PetStatus or no status`)
  }
  const animal = { name, categoryId: categoryId as number }
  return status === undefined ? animal : { ...animal, status }
}

function parseAnimalsParams(params: unknown): AnimalsParams {
  const { atLeast, status } = paramsOf(params, PROVIDER_STATES.animalsExist)
  if (typeof atLeast !== 'number' || !Number.isInteger(atLeast) || atLeast < LIMIT.min || atLeast > LIMIT.max) {
    throw new TypeError(`"${PROVIDER_STATES.animalsExist}" needs atLeast, an integer from ${LIMIT.min} to ${LIMIT.max}`)
  }
  if (status !== undefined && !isPetStatus(status)) throw new TypeError(`"${PROVIDER_STATES.animalsExist}" needs a PetStatus or no status`)
  return status === undefined ? { atLeast } : { atLeast, status }
}
