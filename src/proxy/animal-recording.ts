import { createScrubber, type Scrubber } from '../service/credentials.js'
import { parseFixtureRecords, toFixtureText } from '../fake/fixture.js'
import type { ProxiedExchange } from './proxy-api.js'
import type { Pet } from '../spec/animals-service.js'

import { operationOf } from '../spec/animals-service.js'
/** Every animal seen in an answer, by id, latest wins: `proxy --record`. */
export type AnimalRecording = {
  add(exchange: ProxiedExchange): void
  readonly size: number
  /**
   * The animals as a fixture `serve --fixture` loads, checked as any fixture; what fails is named,
   * and how many were left out because the latest answer showing them held a credential the
   * request carried (a service that echoes the key would otherwise put it in a committed file).
   */
  fixture(): { readonly text: string; readonly animals: number; readonly skipped: readonly string[]; readonly withCredentials: number }
}

// Far more than a QA session sees; past it the oldest animal seen goes.
const MOST_ANIMALS = 200_000

export function createAnimalRecording(): AnimalRecording {
  const byId = new Map<string, unknown>()
  const withCredentials = new Set<string>()
  const keep = (record: unknown, scrub: Scrubber): void => {
    const id = (record as { id?: unknown } | null)?.id
    if (typeof id !== 'number' && typeof id !== 'string') return
    byId.delete(String(id))
    const text = JSON.stringify(record)
    if (scrub(text) !== text) {
      withCredentials.add(String(id))
      return
    }
    withCredentials.delete(String(id))
    byId.set(String(id), record)
    if (byId.size > MOST_ANIMALS) byId.delete(byId.keys().next().value as string)
  }
  return {
    add({ request, status, answer, credentials }) {
      if (status === null || status < 200 || status > 299 || request.method === 'HEAD') return
      if (operationOf(request.method, request.path) === undefined) return
      let body: unknown
      try {
        body = JSON.parse(answer)
      } catch {
        return
      }
      const scrub = createScrubber(credentials)
      for (const record of Array.isArray(body) ? body : [body]) keep(record, scrub)
    },
    get size() {
      return byId.size
    },
    fixture() {
      const pets: Pet[] = []
      const skipped: string[] = []
      for (const [id, record] of byId) {
        const checked = parseFixtureRecords([record])
        if (checked.ok) pets.push(...checked.value)
        else skipped.push(`id ${id}: ${checked.error.replace(/^record 1 \(index 0\): /, '')}`)
      }
      pets.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0))
      return { text: toFixtureText(pets), animals: pets.length, skipped, withCredentials: withCredentials.size }
    },
  }
}
