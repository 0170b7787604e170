import { type Handler, isDropped, type PlainRequest, type PlainResponse } from '../../src/service/http.js'
import { PROVIDER_KEY } from './pact-verification.js'

/** A fake that breaks one rule of the spec, and the interactions of the pact that must then fail. */
export type BrokenFake = {
  readonly rule: string
  readonly breaks: readonly string[]
  wrap(site: Handler): Handler
}

const isList = (request: PlainRequest): boolean => request.method === 'GET' && request.path === '/v1/pets'
const isCreate = (request: PlainRequest): boolean => request.method === 'POST' && request.path === '/v1/pets'
const isGetPet = (request: PlainRequest): boolean => request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(request.path)

function changeRequest(change: (request: PlainRequest) => PlainRequest): (site: Handler) => Handler {
  return (site) => ({ handle: (request) => site.handle(change(request)) })
}

function changeResponse(change: (request: PlainRequest, response: PlainResponse) => PlainResponse): (site: Handler) => Handler {
  return (site) => ({
    async handle(request) {
      const reply = await site.handle(request)
      return isDropped(reply) ? reply : change(request, reply)
    },
  })
}

function withQuery(request: PlainRequest, edit: (query: URLSearchParams) => void): PlainRequest {
  const query = new URLSearchParams(request.search)
  edit(query)
  return { ...request, search: query.toString() }
}

function jsonBodyOf(response: PlainResponse): Record<string, unknown> {
  return JSON.parse(response.body ?? '{}') as Record<string, unknown>
}

const ADD = {
  withStatus: 'a request to add an animal with a status',
  withoutStatus: 'a request to add an animal without a status',
  withoutName: 'a request to add an animal without a name',
  withoutCategoryId: 'a request to add an animal without a categoryId',
}
const LIST = {
  defaultLimit: 'a request to list animals with the default limit',
  limit: 'a request to list at most 3 animals',
  sold: 'a request to list sold animals',
}
const GET = { found: 'a request to get an animal', missing: 'a request to get an animal that does not exist' }
const UNAUTHORIZED = ['list animals', 'add an animal', 'get an animal'].flatMap((operation) => [
  `a request to ${operation} without a key`,
  `a request to ${operation} with an invalid key`,
])

/**
 * One broken fake per rule the pact relies on. Together they break every interaction; each must
 * break exactly the interactions listed, which shows the pact checks that rule and no other.
 */
export const BROKEN_FAKES: readonly BrokenFake[] = [
  {
    rule: 'createPet answers 200 instead of 201',
    breaks: [ADD.withStatus, ADD.withoutStatus],
    wrap: changeResponse((request, response) => (isCreate(request) && response.status === 201 ? { ...response, status: 200 } : response)),
  },
  {
    rule: 'createPet drops the status sent',
    breaks: [ADD.withStatus],
    wrap: changeResponse((request, response) => {
      if (!isCreate(request) || response.status !== 201) return response
      const { status: _status, ...pet } = jsonBodyOf(response)
      return { ...response, body: JSON.stringify(pet) }
    }),
  },
  {
    rule: 'createPet accepts an animal without name or categoryId',
    breaks: [ADD.withoutName, ADD.withoutCategoryId],
    wrap: changeRequest((request) => {
      if (!isCreate(request) || request.body === undefined) return request
      const body = { name: 'Filled in', categoryId: 1, ...(JSON.parse(new TextDecoder().decode(request.body)) as object) }
      return { ...request, body: new TextEncoder().encode(JSON.stringify(body)) }
    }),
  },
  {
    rule: 'listPets ignores the default limit',
    breaks: [LIST.defaultLimit],
    wrap: changeRequest((request) =>
      isList(request) && !new URLSearchParams(request.search).has('limit') ? withQuery(request, (query) => query.set('limit', '100')) : request,
    ),
  },
  {
    rule: 'listPets defaults to a limit of 10',
    breaks: [LIST.defaultLimit],
    wrap: changeRequest((request) =>
      isList(request) && !new URLSearchParams(request.search).has('limit') ? withQuery(request, (query) => query.set('limit', '10')) : request,
    ),
  },
  {
    rule: 'listPets ignores limit',
    breaks: [LIST.limit],
    wrap: changeRequest((request) => (isList(request) ? withQuery(request, (query) => query.delete('limit')) : request)),
  },
  {
    rule: 'listPets ignores the status filter',
    breaks: [LIST.sold],
    wrap: changeRequest((request) => (isList(request) ? withQuery(request, (query) => query.delete('status')) : request)),
  },
  {
    rule: 'ids are strings',
    breaks: [LIST.defaultLimit, LIST.limit, LIST.sold, ADD.withStatus, ADD.withoutStatus, GET.found],
    wrap: changeResponse((_request, response) =>
      response.status < 300 && response.body !== undefined
        ? { ...response, body: response.body.replace(/"id":(\d+)/g, '"id":"$1"') }
        : response,
    ),
  },
  {
    rule: 'getPet answers 500',
    breaks: [GET.found],
    wrap: changeResponse((request, response) =>
      isGetPet(request) && response.status === 200
        ? { ...response, status: 500, body: JSON.stringify({ code: 'internal_error', message: 'Broken.', status: 500 }) }
        : response,
    ),
  },
  {
    rule: 'getPet finds an animal that does not exist',
    breaks: [GET.missing],
    wrap: changeResponse((request, response) => {
      if (!isGetPet(request) || response.status !== 404) return response
      const id = Number(request.path.slice('/v1/pets/'.length))
      return { ...response, status: 200, body: JSON.stringify({ id, name: 'Ghost', categoryId: 1 }) }
    }),
  },
  {
    rule: 'the key is not checked',
    breaks: UNAUTHORIZED,
    wrap: changeRequest((request) => ({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${PROVIDER_KEY}` },
    })),
  },
  {
    rule: 'Error bodies carry another status',
    breaks: [ADD.withoutName, ADD.withoutCategoryId, GET.missing, ...UNAUTHORIZED],
    wrap: changeResponse((_request, response) =>
      response.status < 400 ? response : { ...response, body: JSON.stringify({ ...jsonBodyOf(response), status: response.status === 400 ? 422 : 400 }) },
    ),
  },
  {
    rule: 'Error bodies lack status',
    breaks: [ADD.withoutName, ADD.withoutCategoryId, GET.missing, ...UNAUTHORIZED],
    wrap: changeResponse((_request, response) => {
      if (response.status < 400) return response
      const { status: _status, ...rest } = jsonBodyOf(response)
      return { ...response, body: JSON.stringify(rest) }
    }),
  },
]
