import { isInteger, parse } from 'lossless-json'
import type { FuzzRequest } from './request-arbitraries.js'
import type { Pet } from '../../src/spec/animals-service.js'

/** An animal as comparable text: exact whatever the size of its numbers. */
type Canonical = string

const decoder = new TextDecoder()

function readJson(text: string): unknown {
  return parse(text, null, (number) => (isInteger(number) ? BigInt(number) : Number(number)))
}

function canonical(value: unknown): Canonical | undefined {
  const pet = value as Partial<Record<keyof Pet, unknown>> | null
  if (typeof pet !== 'object' || pet === null) return undefined
  return JSON.stringify([String(pet.id), pet.name, String(pet.categoryId), pet.status ?? null])
}

/**
 * What the store must hold after the requests so far: the fixture plus every animal a 201
 * reported. `observe` returns broken invariants; an empty list means all held.
 */
export function createStoreModel(fixture: readonly Pet[]) {
  const animals = new Map<string, Canonical>(fixture.map((pet) => [String(pet.id), canonical(pet) ?? '']))
  return {
    get size() {
      return animals.size
    },
    ids: () => [...animals.keys()],
    observe(request: FuzzRequest, status: number, body: string): string[] {
      if (request.method === 'POST' && request.path === '/pets' && status === 201) {
        const created = readJson(body) as Record<string, unknown>
        const sent = readJson(decoder.decode(request.body)) as Record<string, unknown>
        const id = String(created.id)
        const problems: string[] = []
        if (animals.has(id)) problems.push(`id ${id} was assigned twice`)
        const expected = canonical({ id: created.id, name: sent.name, categoryId: sent.categoryId, status: sent.status })
        if (canonical(created) !== expected) problems.push(`created ${canonical(created)} but sent ${expected}`)
        animals.set(id, canonical(created) ?? '')
        return problems
      }
      if (request.method === 'GET' && status === 200 && request.path.startsWith('/pets/')) {
        const pet = canonical(readJson(body))
        const id = JSON.parse(pet ?? '[]')[0] as string
        return animals.get(id) === pet ? [] : [`got ${pet}, stored ${animals.get(id)}`]
      }
      if (request.method === 'GET' && status === 200 && request.path === '/pets') {
        return checkList(readJson(body) as unknown[], new URLSearchParams(request.query.map(([k, v]) => [k, v])))
      }
      return []
    },
    /** The animals a list answer shows are stored ones, in id order, matching the filter, at most limit. */
    checkList,
    expected: (id: string) => animals.get(id),
    /** Parses an answer exactly, integers as bigints. */
    parse: readJson,
    canonical: (body: string) => canonical(readJson(body)),
  }

  function checkList(listed: unknown[], query: URLSearchParams): string[] {
    const problems: string[] = []
    const status = query.get('status')
    const limit = Number(query.get('limit') ?? 20)
    if (listed.length > limit) problems.push(`listed ${listed.length} animals past limit ${limit}`)
    let previous = -(2n ** 64n)
    for (const item of listed) {
      const pet = item as { id: bigint; status?: string }
      if (animals.get(String(pet.id)) !== canonical(pet)) problems.push(`listed ${canonical(pet)} which is not stored`)
      if (status !== null && pet.status !== status) problems.push(`listed status ${pet.status} under filter ${status}`)
      if (pet.id <= previous) problems.push('the list is not in ascending id order')
      previous = pet.id
    }
    return problems
  }
}
