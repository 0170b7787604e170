import type { Violation } from '../spec-rules/answer-rules.js'
import { type CreationLog, idReuses } from '../deployment/creations.js'
import { describeFetchError } from '../client/fetch-errors.js'
import { markName } from '../deployment/run-marker.js'
import { LIMIT, OPERATIONS, petPath } from '../spec/animals-service.js'
import { cite } from '../spec/citations.js'

import { INVALID_KEY } from '../contracts/placeholder-key.js'
import { definedOnly } from '../service/defined-only.js'
/**
 * A service a scenario runs against: its API base with `/v1`, a key it accepts, the run's marker,
 * and what the run saw of its ids (`fetch` is the one that notes them: see `watchCreations`).
 */
export type ScenarioSide = {
  readonly baseUrl: string
  readonly apiKey: string
  readonly marker: string
  readonly timeoutMs: number
  readonly fetch: typeof fetch
  readonly creations: CreationLog
}

/** What a scenario saw on one side, in a few words, and where that contradicts the spec. */
export type ScenarioResult = { readonly summary: string; readonly violations: readonly Violation[] }

/**
 * A rule no single answer shows: a sequence of requests to one side, judged as a whole. Every
 * animal a scenario creates carries the run's marker; none deletes anything.
 */
export type Scenario = {
  readonly id: string
  /** What it sends, as people read it. */
  readonly request: string
  /** The sentence of the spec it checks. */
  readonly rule: string
  run(side: ScenarioSide): Promise<ScenarioResult>
}

type Answer = { readonly status: number; readonly json: unknown }
type Listed = { readonly id: unknown; readonly name: unknown }

function client(side: ScenarioSide) {
  const send = async (method: string, path: string, init: { authorization?: string; body?: string } = {}): Promise<Answer> => {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (init.authorization !== undefined) headers.authorization = init.authorization
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    const response = await side.fetch(`${side.baseUrl}${path}`, {
      method,
      headers,
      ...definedOnly({ body: init.body }),
      signal: AbortSignal.timeout(side.timeoutMs),
    })
    const text = await response.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {} // not JSON: json stays undefined
    return { status: response.status, json }
  }
  const key = `Bearer ${side.apiKey}`
  return {
    send,
    create: (name: string) => send(OPERATIONS.createPet.method, OPERATIONS.createPet.path, { authorization: key, body: JSON.stringify({ name: markName(name, side.marker), categoryId: 1 }) }),
    list: async (query: string): Promise<Listed[]> => {
      const answer = await send(OPERATIONS.listPets.method, `${OPERATIONS.listPets.path}?${query}`, { authorization: key })
      return Array.isArray(answer.json) ? (answer.json as Listed[]) : []
    },
    get: (id: string) => send(OPERATIONS.getPet.method, petPath(encodeURIComponent(id)), { authorization: key }),
  }
}

const idOf = (answer: Answer): string | undefined => {
  const id = (answer.json as { id?: unknown } | undefined)?.id
  return answer.status === 201 && Number.isInteger(id) ? String(id) : undefined
}

const REFUSALS = [
  { how: 'no key', authorization: undefined },
  { how: 'an invalid key', authorization: `Bearer ${INVALID_KEY}` },
  { how: 'an empty bearer token', authorization: 'Bearer ' },
] as const

const refusedStoresNothing: Scenario = {
  id: 'refused-create-stores-nothing',
  request: 'POST /pets with no key, an invalid key and an empty token, then look for those animals',
  rule: cite('keyNeeded'),
  async run(side) {
    const api = client(side)
    // Animals created just before and after bracket the ids a stored refusal could have taken.
    const before = idOf(await api.create('Refusal bracket'))
    const names = REFUSALS.map(({ how }) => markName(`Refused probe (${how})`, side.marker))
    const statuses: number[] = []
    for (const [index, refusal] of REFUSALS.entries()) {
      const body = JSON.stringify({ name: names[index], categoryId: 1, status: 'pending' })
      statuses.push((await api.send(OPERATIONS.createPet.method, OPERATIONS.createPet.path, { ...definedOnly({ authorization: refusal.authorization }), body })).status)
    }
    const after = idOf(await api.create('Refusal bracket'))
    const seen: Listed[] = [...(await api.list(`limit=${LIMIT.max}`)), ...(await api.list(`status=pending&limit=${LIMIT.max}`))]
    const gap = before === undefined || after === undefined ? 0 : Number(after) - Number(before) - 1
    if (gap > 0 && gap <= 10) {
      for (let id = Number(before) + 1; id < Number(after); id++) {
        const found = await api.get(String(id))
        if (found.status === 200) seen.push(found.json as Listed)
      }
    }
    const stored = REFUSALS.filter((_, index) => seen.some((pet) => pet?.name === names[index]))
    const violations = stored.map(({ how }) => ({
      aspect: 'stored animals' as const,
      reason: `an animal sent with ${how} was stored although the request was answered ${statuses[REFUSALS.findIndex((each) => each.how === how)]}; ${cite('keyNeeded')}`,
    }))
    const summary = stored.length === 0 ? 'none of the refused animals stored' : `stored: sent with ${stored.map((each) => each.how).join(', ')}`
    return { summary, violations }
  },
}

const idsUniqueAfterExistingData: Scenario = {
  id: 'ids-unique-after-existing',
  request: 'GET /pets (all, and by each status) before parity creates anything; then every POST /pets of the run answered 201: no new id is a listed animal\'s, none is given twice',
  rule: cite('petId'),
  async run(side) {
    const judged = idReuses(side.creations)
    if (judged.created === 0) return { summary: 'no animal created', violations: [] }
    const violations = judged.reasons.map((reason) => ({ aspect: 'ids' as const, reason }))
    const summary = [judged.taken > 0 ? `${judged.taken} of ${judged.created} new ids already taken` : '', judged.twice > 0 ? `${judged.twice} of ${judged.created} new ids given twice` : '']
    return violations.length === 0
      ? { summary: `${judged.created} created, no id among the ${judged.listedBefore} listed before, none given twice`, violations }
      : { summary: summary.filter((part) => part !== '').join('; '), violations }
  },
}

/** How many animals the parallel scenario creates at once. */
export const PARALLEL_CREATIONS = 20

const idsUniqueInParallel: Scenario = {
  id: 'ids-unique-in-parallel',
  request: `${PARALLEL_CREATIONS} POST /pets at once: ${PARALLEL_CREATIONS} distinct ids`,
  rule: cite('petId'),
  async run(side) {
    const api = client(side)
    const answers = await Promise.all(Array.from({ length: PARALLEL_CREATIONS }, (_, index) => api.create(`Parallel probe ${index + 1}`)))
    const ids = answers.map(idOf).filter((id) => id !== undefined)
    const distinct = new Set(ids).size
    const summary = `${ids.length} created, ${distinct} distinct ids`
    if (distinct === ids.length) return { summary, violations: [] }
    return { summary, violations: [{ aspect: 'ids', reason: `${ids.length} animals created at once got ${distinct} distinct ids; ${cite('petId')}` }] }
  },
}

/** The body the large-body scenario sends: 2 MiB of JSON that no service can store (no name). */
export const LARGE_BODY_BYTES = 2 * 1024 * 1024

const survivesLargeBody: Scenario = {
  id: 'survives-large-body',
  request: 'POST /pets with a 2 MiB body (no name), then GET /pets?limit=1',
  rule: cite('listOk'),
  async run(side) {
    const api = client(side)
    const padding = ' '.repeat(LARGE_BODY_BYTES - '{"categoryId":"none"}'.length)
    // How the large body itself is answered (400, 413, a closed connection) is open: the spec
    // states no body size limit (section 8).
    const first = await api.send(OPERATIONS.createPet.method, OPERATIONS.createPet.path, { authorization: `Bearer ${side.apiKey}`, body: `{${padding}"categoryId":"none"}` }).then(
      (answer) => String(answer.status),
      (error: unknown) => describeFetchError(error, side.timeoutMs),
    )
    try {
      const next = await api.send(OPERATIONS.listPets.method, `${OPERATIONS.listPets.path}?limit=1`, { authorization: `Bearer ${side.apiKey}` })
      const summary = `the large body: ${first}; the next list: ${next.status}`
      return next.status === 200
        ? { summary, violations: [] }
        : { summary, violations: [{ aspect: 'availability', reason: `after a 2 MiB body, GET /pets with a valid key was answered ${next.status}; ${cite('listOk')}` }] }
    } catch (error) {
      const reason = describeFetchError(error, side.timeoutMs)
      return {
        summary: `the large body: ${first}; the next list: no answer`,
        violations: [{ aspect: 'availability', reason: `after a 2 MiB body, GET /pets with a valid key got no answer (${reason}); ${cite('listOk')}` }],
      }
    }
  },
}

/**
 * Every scenario, in the order run: the large body last of those that send, since a service may not
 * survive it; then the ids of the whole run, which sends nothing.
 */
export const PARITY_SCENARIOS: readonly Scenario[] = [refusedStoresNothing, idsUniqueInParallel, survivesLargeBody, idsUniqueAfterExistingData]
