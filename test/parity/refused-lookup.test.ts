import { expect, it } from 'vitest'
import { PARITY_SCENARIOS, type Scenario, type ScenarioSide } from '../../src/parity/scenarios.js'

const KEY = 'lookup-key-1'
const scenario = (id: string): Scenario => {
  const found = PARITY_SCENARIOS.find((each) => each.id === id)
  if (found === undefined) throw new Error(`no scenario ${id}`)
  return found
}

type Animal = { readonly id: number; readonly name: string; readonly categoryId: number; readonly status?: string }

/**
 * A deployment, reached through the scenario's fetch, that gives a refused animal an id and keeps
 * it out of its lists; `GET /pets/{id}` answers such an animal with `hiddenStatus`, its record as the body.
 */
function deploymentKeepingRefused(hiddenStatus: number): ScenarioSide {
  const shown: Animal[] = []
  const hidden: Animal[] = []
  let next = 1
  const reply = (status: number, body: unknown) => Response.json(body, { status })
  const fetchStub = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input))
    const method = init?.method ?? 'GET'
    const authorized = (init?.headers as Record<string, string> | undefined)?.authorization === `Bearer ${KEY}`
    if (method === 'POST' && url.pathname === '/v1/pets') {
      const animal = { ...(JSON.parse(String(init?.body)) as Omit<Animal, 'id'>), id: next++ }
      if (!authorized) {
        hidden.push(animal)
        return reply(401, { code: 'unauthorized', message: 'A valid API key is needed.', status: 401 })
      }
      shown.push(animal)
      return reply(201, animal)
    }
    if (!authorized) return reply(401, { code: 'unauthorized', message: 'A valid API key is needed.', status: 401 })
    if (method === 'GET' && url.pathname === '/v1/pets') {
      const status = url.searchParams.get('status')
      return reply(200, shown.filter((each) => status === null || each.status === status))
    }
    const id = /^\/v1\/pets\/([0-9]+)$/.exec(url.pathname)?.[1]
    const found = shown.find((each) => String(each.id) === id)
    if (found !== undefined) return reply(200, found)
    const kept = hidden.find((each) => String(each.id) === id)
    if (kept !== undefined) return reply(hiddenStatus, kept)
    return reply(404, { code: 'not_found', message: 'No animal has this id.', status: 404 })
  }
  return { baseUrl: 'http://deployment.test/v1', apiKey: KEY, marker: '[animals-mock parity t-2]', timeoutMs: 5000, fetch: fetchStub as typeof fetch, creations: { before: new Map(), created: [] } }
}

// Only a 200 finds an animal: a deployment may answer an id it does not serve with any body,
// the refused animal's record included.
it('counts a refused animal as stored only when GET /pets/{id} answers it with 200, not with 410 or 404 and its record', async () => {
  for (const status of [410, 404]) {
    expect(await scenario('refused-create-stores-nothing').run(deploymentKeepingRefused(status)), String(status)).toEqual({
      summary: 'none of the refused animals stored',
      violations: [],
    })
  }
  const served = await scenario('refused-create-stores-nothing').run(deploymentKeepingRefused(200))
  expect(served.summary).toBe('stored: sent with no key, an invalid key, an empty bearer token')
  expect(served.violations).toHaveLength(3)
})
